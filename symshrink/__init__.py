"""symshrink: a minimizer and delta debugger for PyTorch symbolic-shape repros."""

__version__ = "0.1.0"
