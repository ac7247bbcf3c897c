# Corpus program, written for gradsh (no code copied). Modelled on the blog post
# "Understanding BatchNorm, PyTorch Weights, Float, and Double in Deep Learning":
# https://www.codegenes.net/blog/batchnorm-pytorch-weight-float-double
# Like the post: a SimpleCNN (Conv2d(3, 16, 3, padding=1) -> BatchNorm2d(16) -> ReLU) run on a
# (1, 3, 32, 32) input printing the output shape; xavier_uniform_ on a Linear(10, 5); float32
# and float64 tensors and their dtypes; BatchNorm with different data types: a float64 batch
# fed to the float32 model (the error it raises, caught and printed), the model converted with
# .double() (parameters and running statistics become float64), the input converted with
# .float() instead, and a float16 input to a float32 BatchNorm1d (the one mix PyTorch's CPU
# kernels accept); train/eval running statistics in both precisions.
# Differences: seeded; a batch of 4 so that training-mode statistics exist; values printed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        return x


model = SimpleCNN()
input_tensor = torch.randn(1, 3, 32, 32)
output = model(input_tensor)
print(output.shape)
print(model)

linear_layer = nn.Linear(10, 5)
nn.init.xavier_uniform_(linear_layer.weight)
print(linear_layer.weight)

float_tensor = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float32)
double_tensor = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
print(float_tensor, float_tensor.dtype)
print(double_tensor, double_tensor.dtype)
print(float_tensor.double().dtype, double_tensor.float().dtype, (float_tensor + double_tensor).dtype)

batch = torch.randn(4, 3, 8, 8, dtype=torch.float64)
try:
    model(batch)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model.bn1(torch.randn(4, 16, 8, 8, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)

out32 = model(batch.float())
print(out32.dtype, out32.mean().item(), model.bn1.running_mean[:4])

model_d = SimpleCNN()
model_d.load_state_dict(model.state_dict())
model_d = model_d.double()
print(model_d.conv1.weight.dtype, model_d.bn1.running_var.dtype,
      model_d.bn1.num_batches_tracked.dtype)
out64 = model_d(batch)
print(out64.dtype, out64.mean().item())
print(model_d.bn1.running_mean[:4])
print((out64.float() - model(batch.float())).abs().max() < 1e-4)

bn = nn.BatchNorm1d(3)
x16 = torch.randn(5, 3).half()
y16 = bn(x16)
print(y16.dtype, y16)
print(bn.running_mean, bn.running_mean.dtype)
bn.eval()
print(bn(x16))
try:
    bn(torch.randn(5, 3, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
bn_half = nn.BatchNorm1d(3).half()
print(bn_half.weight.dtype, bn_half(x16).dtype)
try:
    nn.LayerNorm(3)(torch.randn(2, 3, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.LayerNorm(3).double()(torch.randn(2, 3, dtype=torch.float64)))
