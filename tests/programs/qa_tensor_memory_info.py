# Corpus program, written for gradsh (no code copied). Modelled on the notebook "understanding
# pytorch" (https://github.com/MB1151/understanding_pytorch: strides, tensor.data_ptr(),
# views sharing memory) and on the common question of checking whether two tensors share
# memory: data_ptr, element_size, nelement and nbytes of views, detach and clone.
# Written for gradsh; data_ptr values are compared, never printed.
import torch

t1 = torch.arange(24).reshape(2, 3, 2, 2)
print(t1.shape, t1.stride(), t1.ndimension(), t1.nelement(), t1.element_size(), t1.nbytes)
view = t1[1]
print(view.data_ptr() - t1.data_ptr(), 12 * t1.element_size())
print(t1.transpose(0, 1).is_contiguous(), t1.view(-1).data_ptr() == t1.data_ptr())

x = torch.randn(3, 4, requires_grad=True)
d = x.detach()
c = x.clone()
print(d.data_ptr() == x.data_ptr(), c.data_ptr() == x.data_ptr())
print(x.is_floating_point(), torch.tensor([1]).is_floating_point(), x.is_complex(), x.is_signed())
print(x.itemsize, x.double().itemsize, x.half().element_size(), torch.tensor([True]).nbytes)
ints = torch.tensor([1, 2, 3])
print(ints.type_as(x), ints.type_as(x).dtype, x.type(), ints.type())
print(x[:, 1].nbytes, x.t().nbytes, x.t().is_contiguous(), x.t().contiguous().stride())
d.zero_()
print(x.abs().sum().item(), x._version, d._version)
