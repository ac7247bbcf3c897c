"""gradsh: a shell for a small tensor language whose autograd behaves exactly like PyTorch's."""

__version__ = "0.1.0"
