"""float32 math bit-identical to PyTorch 2.13's CPU kernels, in plain NumPy (see docs/float32.md)."""
