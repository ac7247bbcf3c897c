# Corpus program, written for gradsh (no code copied). Modelled on the CSDN / blog posts
# "python与pytorch的数据类型、数据精度与转换" summarised in https://www.codeprj.com/zh/blog/f64f5c1.html
# (set_default_dtype(torch.double), .double() / .float() / .long() / .int() / .half(),
# .type(torch.FloatTensor), .to(dtype)) and the PyTorch "Tensor Attributes" page on type
# promotion (https://pytorch.org/docs/stable/tensor_attributes.html: int + float, int tensor
# + float scalar, uint8 + int8, division of integers giving float, result_type,
# promote_types, can_cast, the error when an in-place op would need a wider dtype), plus
# finfo / iinfo limits.
# Differences: our own code; each case printed.
import numpy as np
import torch

x = torch.tensor([1, 2, 3])
print(x.dtype, x.float().dtype, x.double().dtype, x.half().dtype, x.long().dtype, x.int().dtype)
print(x.type(), x.type(torch.FloatTensor), x.type(torch.float64).dtype)
print(x.to(torch.float32), x.to(dtype=torch.int8), x.to("cpu", torch.int16).dtype)
print(torch.tensor([1.7, -1.7]).int(), torch.tensor([1.7, -1.7]).long(), torch.tensor([300.0]).to(torch.uint8))
print(torch.tensor([0.0, 2.0]).bool(), torch.tensor([True, False]).float())

int_tensor = torch.ones(1, dtype=torch.int)
float_tensor = torch.ones(1, dtype=torch.float)
double_tensor = torch.ones(1, dtype=torch.double)
long_tensor = torch.ones(1, dtype=torch.long)
uint_tensor = torch.ones(1, dtype=torch.uint8)
print((uint_tensor + 5).dtype, (int_tensor + 5).dtype, (int_tensor + 5.0).dtype)
print((float_tensor + double_tensor).dtype, (int_tensor + long_tensor).dtype)
print((float_tensor + 5.0).dtype, (long_tensor + float_tensor).dtype)
print((torch.ones(1, dtype=torch.int8) + uint_tensor).dtype, (uint_tensor + True).dtype)
print(torch.tensor([5, 7]) / 2, torch.tensor([5, 7]) // 2, torch.tensor([5, -7]) % 3)
print(torch.result_type(int_tensor, 5.0), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.double, torch.float), torch.can_cast(torch.float, torch.int))
try:
    int_tensor += 5.5
except RuntimeError as e:
    print("RuntimeError:", e)
float_tensor *= double_tensor
print(float_tensor.dtype)

print(torch.get_default_dtype(), torch.tensor([1.5]).dtype)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1 / 3]), torch.zeros(1).dtype, torch.tensor([1]).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1 / 3]))
print(torch.finfo(torch.float32))
print(torch.finfo(torch.float16).max, torch.finfo().eps, torch.iinfo(torch.int8))
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype, torch.tensor(np.float64(2.5)).dtype)
print(torch.tensor(3).dtype, torch.tensor(3.0).dtype, torch.tensor(True).dtype, torch.tensor([]).dtype)
h = torch.tensor([1000.0, 0.1], dtype=torch.float16)
print(h * 100, h.float() * 100)
print(torch.arange(5).dtype, torch.arange(5.0).dtype, torch.linspace(0, 1, 3).dtype)
print(x.element_size(), x.float().element_size(), x.half().element_size(), x.is_floating_point())
