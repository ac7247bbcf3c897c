"""torch.onnx: importable, as programs import it at the top whether or not they export
(pytorch/examples' word_language_model: `import torch.onnx`, used only with --onnx-export);
gradsh has no ONNX exporter, so its functions are not-implemented errors when used."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.onnx")
