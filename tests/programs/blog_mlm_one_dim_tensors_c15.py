# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "One-Dimensional Tensors in Pytorch" (Muhammad Asad Iqbal Khan, 2022):
# https://machinelearningmastery.com/one-dimensional-tensors-in-pytorch/
# Like the post: tensors from a list of ints and of floats with their dtype and .type();
# an int list turned into a float tensor with torch.FloatTensor, then back with
# .type(torch.IntTensor) / .int(); size(), ndimension(); view(-1, 1) and view(5, 1) of a
# five-element tensor; numpy arrays to tensors (from_numpy) and back (.numpy()); tolist();
# indexing and slicing, item assignment through a slice; max, min, mean, std of a float
# tensor and the error that mean() raises on an integer tensor; linspace; element-wise
# addition, multiplication by a scalar, products of two tensors and the dot product;
# broadcasting a scalar added to a tensor.
# Differences: the pandas Series example uses a NumPy array (pandas is not installed in
# the test environment); errors are caught and printed.
import torch
import numpy as np

int_to_tensor = torch.tensor([10, 11, 12, 13])
print("Tensor object type after conversion: ", int_to_tensor.dtype)
print("Tensor object type after conversion: ", int_to_tensor.type())

float_to_tensor = torch.tensor([10.5, 11.5, 12.5, 13.5])
print("Tensor object type after conversion: ", float_to_tensor.dtype)
print("Tensor object type after conversion: ", float_to_tensor.type())

int_list_to_float_tensor = torch.FloatTensor([10, 11, 12, 13])
int_list_to_float_tensor.type(torch.float64)
print("Type of the new tensor: ", int_list_to_float_tensor.type())
print("Type of the new tensor: ", int_list_to_float_tensor.type(torch.float64).type())
print(int_list_to_float_tensor.type(torch.IntTensor), int_list_to_float_tensor.int().dtype)
print(torch.DoubleTensor([1, 2]), torch.LongTensor([1.7, -2.2]), torch.ByteTensor([1, 255]))

to_size = torch.tensor([10.5, 11.5, 12.5, 13.5])
print("Size of the int_list_to_float_tensor: ", to_size.size())
print("Dimensions of the int_list_to_float_tensor: ", to_size.ndimension())

reshape_tensor = torch.tensor([1, 2, 3, 4, 5])
print("Original tensor: ", reshape_tensor)
print("Size of the tensor: ", reshape_tensor.size())
print("Dimensions of the tensor: ", reshape_tensor.ndimension())
new_tensor = reshape_tensor.view(5, 1)
print("After reshaping:", new_tensor)
print("Size after reshaping: ", new_tensor.size())
print("Dimensions after reshaping: ", new_tensor.ndimension())
print(reshape_tensor.view(-1, 1).shape, reshape_tensor.view(1, -1))

numpy_arr = np.array([10.0, 11.0, 12.0, 13.0])
from_numpy_to_tensor = torch.from_numpy(numpy_arr)
print("dtype of the tensor: ", from_numpy_to_tensor.dtype)
print("type of the tensor: ", from_numpy_to_tensor.type())
tensor_to_numpy = from_numpy_to_tensor.numpy()
print("back to numpy from tensor: ", tensor_to_numpy)
print("dtype of converted numpy array: ", tensor_to_numpy.dtype)

series = np.array([0.1, 2, 0.3, 10.1])
new_tensor = torch.from_numpy(series)
print("Dtype, type, and values of the tensor: ", new_tensor.dtype, new_tensor.type(), new_tensor)
print(torch.from_numpy(np.arange(4, dtype=np.int32)), torch.from_numpy(np.array([True, False])))

tensor_to_list = torch.tensor([10, 11, 12, 13])
print("Tensor to list: ", tensor_to_list.tolist())
print(torch.tensor([0.1, 0.25]).tolist(), torch.tensor(7).tolist())

tensor_index = torch.tensor([0, 1, 2, 3])
print("Check value at index 0:", tensor_index[0])
print("Check value at index 3:", tensor_index[3])

example_tensor = torch.tensor([50, 11, 22, 33, 44])
sclicing_tensor = example_tensor[1:4]
print("example tensor : ", example_tensor)
print("subset of example tensor:", sclicing_tensor)
print("value at index 3 of example tensor:", example_tensor[3])
example_tensor[3] = 0
print("new tensor:", example_tensor)
example_tensor[1:3] = torch.tensor([7, 8])
print(example_tensor, example_tensor[-1], example_tensor[::2])

sample_tensor = torch.tensor([5, 4, 3, 2, 1])
min_value = sample_tensor.min()
max_value = sample_tensor.max()
print("check minimum value in the tensor: ", min_value)
print("check maximum value in the tensor: ", max_value)

mean_std_tensor = torch.tensor([-1.0, 2.0, 1, -2])
Mean = mean_std_tensor.mean()
print("mean of mean_std_tensor: ", Mean)
std_dev = mean_std_tensor.std()
print("standard deviation of mean_std_tensor: ", std_dev)
try:
    sample_tensor.mean()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    sample_tensor.std()
except RuntimeError as e:
    print("RuntimeError:", e)
print(sample_tensor.float().std(), sample_tensor.sum(), sample_tensor.prod(), sample_tensor.argmax())

linspace = torch.linspace(-2, 2, steps=5)
print("linspace tensor: ", linspace)
print(torch.linspace(-2, 2, steps=9))
print(torch.linspace(0, 1, steps=1), torch.linspace(3, 10, steps=3, dtype=torch.int64))

add = torch.tensor([1, 2, 3]) + torch.tensor([2, 3, 4])
print("addition of two tensors: ", add)
mul = 2 * torch.tensor([1, 2, 3])
print("multiplication of a tensor with a scalar: ", mul)
print("element-wise product:", torch.tensor([1, 2]) * torch.tensor([4, 5]))
print("dot product:", torch.dot(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])))
print("scalar broadcast:", torch.tensor([1, 2, 3, 4]) + 1, torch.tensor([1, 2, 3]) / 2)
print(torch.tensor([1, 2, 3]) // 2, torch.tensor([1.5, 2.5]) * torch.tensor([2, 3]))
