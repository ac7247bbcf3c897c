# torch.fft.hfft2 / ihfft2 / hfftn / ihfftn: values, grad_fns, norms, a gradient (gaps3: gradsh had
# none of the four).
import torch
def p(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split('\n')[0][:150])
torch.manual_seed(0)
z = torch.randn(3, 4, dtype=torch.complex64, requires_grad=True)
r = torch.randn(3, 4, 5, requires_grad=True)
for norm in (None, "ortho", "forward"):
    p(lambda: torch.fft.hfft2(z, norm=norm))
    p(lambda: torch.fft.ihfft2(r, norm=norm))
    p(lambda: torch.fft.hfftn(z, s=(3, 6), norm=norm))
    p(lambda: torch.fft.ihfftn(r, dim=(0, 2), norm=norm))
p(lambda: torch.fft.ihfftn(r, dim=1))
p(lambda: torch.fft.hfftn(z, dim=0))
p(lambda: torch.autograd.grad(torch.fft.hfft2(z).pow(2).sum(), z)[0])
p(lambda: torch.fft.hfftn(z.double() if False else z.detach().to(torch.complex128)).dtype)
p(lambda: torch.fft.ihfft2(torch.arange(6).reshape(2, 3)))
p(lambda: torch.fft.ihfft2(z))
p(lambda: torch.fft.hfftn(z, s=(0, 4)))
