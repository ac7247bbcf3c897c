"""float32 math as PyTorch 2.13 computes it on the CPU, in plain NumPy (docs/float32.md)."""
