# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs pages
# "Tensor Attributes" and "Type Info", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/tensor_attributes.rst
# https://github.com/pytorch/pytorch/blob/main/docs/source/type_info.rst
# Like the pages: the dtype table's attributes (is_floating_point, is_complex, is_signed,
# itemsize), the type-promotion examples (int/float/double/complex-free subset: a float32
# tensor plus a Python float stays float32, int tensors plus a float scalar become the default
# float, a zero-dim double does not promote a float vector, in-place ops that would need a
# downcast raise "result type Float can't be cast to the desired output type Long", and
# torch.promote_types / result_type / can_cast), torch.device constructions ('cpu', ('cpu', 0),
# a device used as a context for factory functions is skipped), torch.layout and memory_format
# (channels_last strides), torch.finfo / torch.iinfo of each type; plus the build queries a
# device-selection cell reads (torch.backends.mkl / openmp / mkldnn / mps, torch.xpu,
# torch.accelerator) and torch.is_storage.
# Differences: our own code; complex dtypes are left out; the values are printed.
import torch

for dt in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
           torch.float16, torch.bfloat16, torch.float32, torch.float64):
    print(dt, dt.is_floating_point, dt.is_complex, dt.is_signed, dt.itemsize)

float_tensor = torch.ones(1, dtype=torch.float)
double_tensor = torch.ones(1, dtype=torch.double)
int_tensor = torch.ones(1, dtype=torch.int)
long_tensor = torch.ones(1, dtype=torch.long)
uint_tensor = torch.ones(1, dtype=torch.uint8)
bool_tensor = torch.ones(1, dtype=torch.bool)
long_zerodim = torch.tensor(1, dtype=torch.long)
int_zerodim = torch.tensor(1, dtype=torch.int)
print(torch.add(5, 5).dtype)
print((int_tensor + 5).dtype)
print((int_tensor + long_zerodim).dtype)
print((long_tensor + int_tensor).dtype)
print((bool_tensor + long_tensor).dtype)
print((bool_tensor + uint_tensor).dtype)
print((float_tensor + double_tensor).dtype)
print((float_tensor + 5.5).dtype)
print((int_tensor + 5.5).dtype)
print((uint_tensor + int_zerodim).dtype)
print((torch.tensor([1.5], dtype=torch.float16) + torch.tensor(2.0, dtype=torch.float64)).dtype)
float_tensor *= float_tensor
float_tensor *= int_tensor
float_tensor *= uint_tensor
float_tensor *= bool_tensor
float_tensor *= double_tensor
int_tensor *= long_tensor
int_tensor *= uint_tensor
uint_tensor *= int_tensor
print(float_tensor, int_tensor, uint_tensor)
for label, fn in [("int *= float", lambda: int_tensor.mul_(float_tensor)),
                  ("bool *= int", lambda: bool_tensor.mul_(int_tensor)),
                  ("long += 1.5", lambda: long_tensor.add_(1.5))]:
    try:
        fn()
        print(label, 'ok')
    except RuntimeError as e:
        print(label, '->', e)
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8))
print(torch.result_type(torch.tensor([1, 2]), 1.0), torch.result_type(torch.tensor([1.0]), torch.tensor(1, dtype=torch.float64)))
print(torch.can_cast(torch.double, torch.float), torch.can_cast(torch.float, torch.int))

print(torch.device('cpu'), repr(torch.device('cpu')), torch.device('cpu', 0), torch.device('cuda:1'))
d = torch.device('cpu')
print(d.type, d.index, torch.ones(2, device=d).device, torch.ones(2).device == d)
print(torch.strided, torch.ones(2).layout)
x = torch.ones(2, 3, 4, 5)
print(x.stride(), x.t().stride() if x.dim() == 2 else x.transpose(0, 1).stride())
y = x.to(memory_format=torch.channels_last)
print(y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
print(torch.contiguous_format, torch.channels_last, torch.preserve_format)

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.dtype)
print(torch.finfo(), torch.finfo(torch.half))
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(ii.bits, ii.max, ii.min, ii.dtype)
print(torch.iinfo(torch.int32))

print(torch.backends.mkl.is_available(), torch.backends.openmp.is_available(),
      torch.backends.mkldnn.is_available(), torch.backends.mps.is_available())
print(torch.cuda.is_available(), torch.xpu.is_available(), torch.accelerator.is_available())
device = ("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available()
          else "xpu" if torch.xpu.is_available() else "cpu")
print(f"Using {device} device")
print(torch.is_storage(x.untyped_storage()), torch.is_storage(x), torch.is_tensor(x))
