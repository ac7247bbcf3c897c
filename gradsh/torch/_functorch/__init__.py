"""The implementation behind torch.func (PyTorch keeps its own in torch/_functorch)."""
