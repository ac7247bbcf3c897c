# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe
# "Automatic Mixed Precision" (Michael Carilli):
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/amp_recipe.py
# Like the recipe: make_model (Linear + ReLU layers, in_size 4096 -> here 64), random
# data/targets split into batches, MSELoss; a default-precision loop; the loop with
# torch.autocast(device_type=..., dtype=torch.float16) printing the output's float16 dtype
# and the loss's float32 dtype; a GradScaler with scaler.scale(loss).backward(),
# scaler.step(opt), scaler.update() and get_scale(); the "all together" loop with
# use_amp; inspecting/modifying gradients with scaler.unscale_ then clip_grad_norm_; saving and
# restoring the scaler's state_dict with the model's and optimizer's.
# Differences: the CPU (torch.amp.GradScaler("cpu"), autocast device "cpu") instead of CUDA;
# small sizes and 3 epochs; no timings; an injected inf gradient shows the scaler skipping a
# step and halving its scale; seeded.
import torch

torch.manual_seed(0)
device = "cpu"
batch_size = 16
in_size = 64
out_size = 8
num_layers = 3
num_batches = 5
epochs = 3


def make_model(in_size, out_size, num_layers):
    layers = []
    for _ in range(num_layers - 1):
        layers.append(torch.nn.Linear(in_size, in_size))
        layers.append(torch.nn.ReLU())
    layers.append(torch.nn.Linear(in_size, out_size))
    return torch.nn.Sequential(*tuple(layers)).to(device)


data = [torch.randn(batch_size, in_size, device=device) for _ in range(num_batches)]
targets = [torch.randn(batch_size, out_size, device=device) for _ in range(num_batches)]
loss_fn = torch.nn.MSELoss().to(device)

net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
for epoch in range(epochs):
    for input, target in zip(data, targets):
        output = net(input)
        loss = loss_fn(output, target)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print("default precision", epoch, loss.item())

for epoch in range(1):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16):
            output = net(input)
            assert output.dtype is torch.float16
            loss = loss_fn(output, target)
            assert loss.dtype is torch.float32
        loss.backward()
        opt.step()
        opt.zero_grad()
print(output.dtype, loss.dtype, loss.item(), output[0, :4])

scaler = torch.amp.GradScaler(device)
print(scaler.get_scale(), scaler.is_enabled(), scaler.get_growth_factor(), scaler.get_backoff_factor(),
      scaler.get_growth_interval())
for epoch in range(1):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16):
            output = net(input)
            loss = loss_fn(output, target)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
print(loss.item(), scaler.get_scale(), scaler.scale(torch.tensor(2.0)))

use_amp = True
torch.manual_seed(1)
net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
scaler = torch.amp.GradScaler(device, enabled=use_amp, init_scale=2.**10, growth_interval=4)
for epoch in range(epochs):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            output = net(input)
            loss = loss_fn(output, target)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
    print("amp", epoch, loss.item(), scaler.get_scale())

for input, target in zip(data, targets):
    with torch.autocast(device_type=device, dtype=torch.float16):
        output = net(input)
        loss = loss_fn(output, target)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    total_norm = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.1)
    scaler.step(opt)
    scaler.update()
    opt.zero_grad()
print("clipped", total_norm, scaler.get_scale())

with torch.autocast(device_type=device, dtype=torch.float16):
    loss = loss_fn(net(data[0]), targets[0])
scaler.scale(loss).backward()
net[0].weight.grad[0, 0] = float("inf")
before = net[0].weight.detach().clone()
scale_before = scaler.get_scale()
scaler.step(opt)
scaler.update()
opt.zero_grad()
print("inf grad: step skipped", torch.equal(before, net[0].weight), scale_before, "->", scaler.get_scale())

checkpoint = {"model": net.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict()}
print(checkpoint["scaler"])
net2 = make_model(in_size, out_size, num_layers)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.001)
scaler2 = torch.amp.GradScaler(device)
net2.load_state_dict(checkpoint["model"])
opt2.load_state_dict(checkpoint["optimizer"])
scaler2.load_state_dict(checkpoint["scaler"])
print(scaler2.get_scale(), scaler2.state_dict() == checkpoint["scaler"])
with torch.no_grad(), torch.autocast(device_type=device, dtype=torch.float16):
    print(net2(data[1])[:2])
