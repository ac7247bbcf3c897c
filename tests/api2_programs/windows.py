import torch

# printed at 4 digits: gradsh's float32 cos and float64 i0 are not yet torch's to the last bit
# at every argument (cos(2.5132742) is 1 ulp off), which the window steps themselves follow
for n in (0, 1, 2, 5, 8, 33):
    for periodic in (True, False):
        print(n, periodic, torch.hann_window(n, periodic), torch.hamming_window(n, periodic))
        print(torch.bartlett_window(n, periodic), torch.blackman_window(n, periodic))
        print(torch.kaiser_window(n, periodic), torch.kaiser_window(n, periodic, beta=5.0,
                                                                    dtype=torch.float64))
        print(torch.hamming_window(n, periodic, alpha=0.6, beta=0.3, dtype=torch.float64))
        print([v.hex() for v in torch.bartlett_window(n, periodic).double().tolist()])
w = torch.hann_window(4, requires_grad=True)
print(w, w.requires_grad, w.is_leaf, torch.blackman_window(6, dtype=torch.float64))
