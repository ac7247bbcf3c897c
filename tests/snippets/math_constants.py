# torch.nan / inf / pi / e / newaxis (torch re-exports math's constants): a masked mean, a
# degree-to-radian conversion and a new axis, as Q&A answers write them.
import torch

x = torch.tensor([1.0, torch.nan, 3.0])
print(torch.nan, torch.inf, torch.pi, torch.e, torch.newaxis)
print(torch.nanmean(x), torch.isnan(x), x.nan_to_num(nan=-torch.inf))
print(torch.deg2rad(torch.tensor([180.0])) == torch.pi, torch.arange(3)[:, torch.newaxis].shape)
print(torch.full((2,), -torch.inf).softmax(0), torch.tensor(torch.e).log())
