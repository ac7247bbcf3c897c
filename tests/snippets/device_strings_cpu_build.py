# Devices on PyTorch's CPU build, as forum code tries them: an unknown type ("gpu") is a parse
# error, any cuda index says CUDA is not compiled in, mps and xpu their own errors, and
# pin_memory needs an accelerator.
import torch

for f in [lambda: torch.device("gpu"), lambda: torch.ones(2).to("cuda:1"),
          lambda: torch.ones(2, device="cuda:1"), lambda: torch.ones(2).pin_memory(),
          lambda: torch.ones(2).to("mps"), lambda: torch.device("mps"),
          lambda: torch.ones(2).is_pinned(), lambda: torch.device("cuda:1"),
          lambda: torch.ones(2).to(torch.device("cuda", 1)), lambda: torch.ones(2).to("xpu"),
          lambda: torch.device("cpu:0"), lambda: torch.device("cuda", 0),
          lambda: torch.device(0), lambda: torch.ones(2).to(0), lambda: torch.device("tpu:0")]:
    try:
        print(f())
    except (RuntimeError, AssertionError) as e:
        print(type(e).__name__, e)
