"""torch.cuda's queries on PyTorch's CPU build (the Chinese Dive into DL, 4.6 use-gpu)."""
import torch

print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_initialized())
for query in (torch.cuda.current_device, lambda: torch.cuda.get_device_name(0),
              lambda: torch.ones(2).cuda()):
    try:
        query()
    except AssertionError as e:
        print(type(e).__name__, e)
# an int device is an index on the current accelerator (pytorch-book chapter 3: .cuda(0))
x = torch.ones(2)
for make in (lambda: x.cuda(0), lambda: x.cuda(device=0), lambda: x.to(0),
             lambda: torch.ones(2, device=0), lambda: x.cuda("cuda:0")):
    try:
        make()
    except (RuntimeError, AssertionError) as e:
        print(type(e).__name__, e)
