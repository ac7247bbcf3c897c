# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), section 3.9 优化器 (the worked example):
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第三章/3.9%20优化器.md
# Like the section: a 2x2 weight with a hand-set all-ones gradient, SGD(lr=0.1, momentum=0.9),
# weight data / grad printed before and after one step and after zero_grad, the
# param_groups printed, the weight shown to be the same object inside the optimizer,
# add_param_group with its own lr and nesterov, state_dict before and after 50 steps, save and
# load of the optimizer state, then defaults, state and param_groups printed.
# Differences: a manual seed; the state_dict is saved to an in-memory buffer instead of a
# D:\ path; ids are compared (is) instead of printed; weight2 gets a gradient so that its
# group's steps do something.
import io

import torch

torch.manual_seed(39)

weight = torch.randn((2, 2), requires_grad=True)
weight.grad = torch.ones((2, 2))
print("The data of weight before step:\n{}".format(weight.data))
print("The grad of weight before step:\n{}".format(weight.grad))
optimizer = torch.optim.SGD([weight], lr=0.1, momentum=0.9)
optimizer.step()
print("The data of weight after step:\n{}".format(weight.data))
print("The grad of weight after step:\n{}".format(weight.grad))
optimizer.zero_grad()
print("The grad of weight after optimizer.zero_grad():\n{}".format(weight.grad))
print("optimizer.params_group is \n{}".format(optimizer.param_groups))
print("weight in optimizer is weight:", optimizer.param_groups[0]['params'][0] is weight)

weight2 = torch.randn((3, 3), requires_grad=True)
optimizer.add_param_group({"params": weight2, 'lr': 0.0001, 'nesterov': True})
print("optimizer.param_groups is\n{}".format(optimizer.param_groups))
opt_state_dict = optimizer.state_dict()
print("state_dict before step:\n", opt_state_dict)
weight.grad = torch.ones((2, 2))
weight2.grad = torch.full((3, 3), 0.5)
for _ in range(50):
    optimizer.step()
print("state_dict after step:\n", optimizer.state_dict())
buf = io.BytesIO()
torch.save(optimizer.state_dict(), buf)
print("----------done-----------")
buf.seek(0)
state_dict = torch.load(buf)
optimizer.load_state_dict(state_dict)
print("load state_dict successfully\n{}".format(state_dict))
print("\n{}".format(optimizer.defaults))
print("\n{}".format(optimizer.state))
print("\n{}".format(optimizer.param_groups))
