"""The autograd engine: tensors, operations and backward, with no knowledge of the language."""
