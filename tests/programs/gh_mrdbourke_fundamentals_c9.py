# Corpus program, written for gradsh (no code copied). Modelled on Daniel Bourke's "Zero to
# Mastery Learn PyTorch for Deep Learning", notebook 00 "PyTorch Fundamentals" (MIT):
# https://github.com/mrdbourke/pytorch-deep-learning/blob/main/00_pytorch_fundamentals.ipynb
# Like the original: scalar/vector/MATRIX/TENSOR with ndim and shape, rand(size=...), zeros/ones
# with dtype, arange and zeros_like, float16 and int8 via .type(), the shape-mismatch matmul
# error, matmul of tensor_A with tensor_B.T, a seeded nn.Linear(2, 6), min/max/mean/sum,
# argmax/argmin, reshape/view (a write through the view), stack, squeeze/unsqueeze/permute,
# indexing bracket by bracket, numpy round trips, and seeded rand() compared with ==.
# Differences: the notebook's displayed cell values are printed (repr of the value or tuple);
# the GPU cells are left out; the matmul error is caught and printed; smaller "image" tensors.
import numpy as np
import torch

scalar = torch.tensor(7)
print(repr(scalar), scalar.ndim, scalar.item())
vector = torch.tensor([7, 7])
print(repr(vector), vector.ndim, vector.shape)
MATRIX = torch.tensor([[7, 8],
                       [9, 10]])
print(repr(MATRIX), MATRIX.ndim, MATRIX.shape, MATRIX[1])
TENSOR = torch.tensor([[[1, 2, 3],
                        [3, 6, 9],
                        [2, 4, 5]]])
print(repr(TENSOR), TENSOR.ndim, TENSOR.shape)

torch.manual_seed(0)
random_tensor = torch.rand(size=(3, 4))
print((random_tensor, random_tensor.dtype))
random_image_size_tensor = torch.rand(size=(24, 24, 3))
print((random_image_size_tensor.shape, random_image_size_tensor.ndim))
zeros = torch.zeros(size=(3, 4))
print((zeros, zeros.dtype))
ones = torch.ones(size=(3, 4))
print((ones, ones.dtype))
zero_to_ten = torch.arange(start=0, end=10, step=1)
print(repr(zero_to_ten))
ten_zeros = torch.zeros_like(input=zero_to_ten)
print(repr(ten_zeros))

float_32_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=None, device=None, requires_grad=False)
print((float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device))
float_16_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=torch.float16)
print(float_16_tensor.dtype, repr(float_16_tensor))
print(repr(float_16_tensor * float_32_tensor))

some_tensor = torch.rand(3, 4)
print(some_tensor)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}")

tensor = torch.tensor([1, 2, 3])
print(repr(tensor + 10), repr(tensor * 10), repr(tensor))
tensor = tensor - 10
print(repr(tensor))
tensor = tensor + 10
print(repr(tensor))
print(repr(torch.multiply(tensor, 10)))
print(tensor, "*", tensor)
print("Equals:", tensor * tensor)
print(repr(torch.matmul(tensor, tensor)), repr(tensor @ tensor))
value = 0
for i in range(len(tensor)):
    value += tensor[i] * tensor[i]
print(repr(value))

tensor_A = torch.tensor([[1, 2],
                         [3, 4],
                         [5, 6]], dtype=torch.float32)
tensor_B = torch.tensor([[7, 10],
                         [8, 11],
                         [9, 12]], dtype=torch.float32)
try:
    torch.matmul(tensor_A, tensor_B)
except RuntimeError as e:
    print("RuntimeError:", e)
print(tensor_A)
print(tensor_B.T)
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}\n")
print(f"New shapes: tensor_A = {tensor_A.shape} (same as above), tensor_B.T = {tensor_B.T.shape}\n")
print(f"Multiplying: {tensor_A.shape} * {tensor_B.T.shape} <- inner dimensions match\n")
print("Output:\n")
output = torch.matmul(tensor_A, tensor_B.T)
print(output)
print(f"\nOutput shape: {output.shape}")
print(repr(torch.mm(tensor_A, tensor_B.T)))

torch.manual_seed(42)
linear = torch.nn.Linear(in_features=2, out_features=6)
x = tensor_A
output = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{output}\n\nOutput shape: {output.shape}")

x = torch.arange(0, 100, 10)
print(repr(x))
print(f"Minimum: {x.min()}")
print(f"Maximum: {x.max()}")
try:
    print(f"Mean: {x.mean()}")
except RuntimeError as e:
    print("RuntimeError:", e)
print(f"Mean: {x.type(torch.float32).mean()}")
print(f"Sum: {x.sum()}")
print((torch.max(x), torch.min(x), torch.mean(x.type(torch.float32)), torch.sum(x)))

tensor = torch.arange(10, 100, 10)
print(f"Tensor: {tensor}")
print(f"Index where max value occurs: {tensor.argmax()}")
print(f"Index where min value occurs: {tensor.argmin()}")
tensor = torch.arange(10., 100., 10.)
print(tensor.dtype)
tensor_float16 = tensor.type(torch.float16)
print(repr(tensor_float16))
tensor_int8 = tensor.type(torch.int8)
print(repr(tensor_int8))
print(repr(torch.arange(100., 300., 40.).type(torch.int8)))

x = torch.arange(1., 8.)
print((x, x.shape))
x_reshaped = x.reshape(1, 7)
print((x_reshaped, x_reshaped.shape))
z = x.view(1, 7)
print((z, z.shape))
z[:, 0] = 5
print((z, x))
x_stacked = torch.stack([x, x, x, x], dim=0)
print(repr(x_stacked))
print(repr(torch.stack([x, x, x, x], dim=1)))
print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"\nNew tensor: {x_unsqueezed}")
print(f"New shape: {x_unsqueezed.shape}")
x_original = torch.rand(size=(24, 24, 3))
x_permuted = x_original.permute(2, 0, 1)
print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")
x_original[0, 0, 0] = 728218
print(x_original[0, 0, 0], x_permuted[0, 0, 0])

x = torch.arange(1, 10).reshape(1, 3, 3)
print((x, x.shape))
print(f"First square bracket:\n{x[0]}")
print(f"Second square bracket: {x[0][0]}")
print(f"Third square bracket: {x[0][0][0]}")
print(repr(x[:, 0]), repr(x[:, :, 1]), repr(x[:, 1, 1]), repr(x[0, 0, :]))
print(repr(x[0][2][2]), repr(x[:, 1, :]), repr(x[0, :, 2]))

array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
print((array, tensor))
array = array + 1
print((array, tensor))
tensor = torch.ones(7)
numpy_tensor = tensor.numpy()
print((tensor, numpy_tensor))
tensor = tensor + 1
print((tensor, numpy_tensor))

random_tensor_A = torch.rand(3, 4)
random_tensor_B = torch.rand(3, 4)
print(f"Tensor A:\n{random_tensor_A}\n")
print(f"Tensor B:\n{random_tensor_B}\n")
print(f"Does Tensor A equal Tensor B? (anywhere)")
print(repr(random_tensor_A == random_tensor_B))
RANDOM_SEED = 42
torch.manual_seed(seed=RANDOM_SEED)
random_tensor_C = torch.rand(3, 4)
torch.random.manual_seed(seed=RANDOM_SEED)
random_tensor_D = torch.rand(3, 4)
print(f"Tensor C:\n{random_tensor_C}\n")
print(f"Tensor D:\n{random_tensor_D}\n")
print(f"Does Tensor C equal Tensor D? (anywhere)")
print(repr(random_tensor_C == random_tensor_D))
print(torch.cuda.is_available(), torch.cuda.device_count())
device = "cuda" if torch.cuda.is_available() else "cpu"
tensor = torch.tensor([1, 2, 3])
print(tensor, tensor.device)
tensor_on_gpu = tensor.to(device)
print(repr(tensor_on_gpu), tensor_on_gpu.cpu().numpy())
