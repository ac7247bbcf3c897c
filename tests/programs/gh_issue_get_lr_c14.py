# Corpus program modelled on the PyTorch issue "LR scheduler get_lr() bug" (get_lr() called
# outside step() applies the decay rule again and warns to use get_last_lr(); get_last_lr()
# returns what step() set) https://github.com/pytorch/pytorch/issues/49885
# and the warning many issues quote, "Detected call of `lr_scheduler.step()` before
# `optimizer.step()`" (e.g. https://github.com/zju3dv/NeuralRecon/issues/51).
# Changed: a tiny model and 6 epochs; the warnings go to stderr; StepLR and MultiStepLR, and
# the scheduler's state_dict printed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)

x, y = torch.randn(8, 2), torch.randn(8, 1)
for epoch in range(6):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(epoch, round(loss.item(), 5), scheduler.get_last_lr(), scheduler.get_lr(),
          optimizer.param_groups[0]['lr'])
print(scheduler.state_dict())

# the scheduler stepped first: PyTorch warns and the schedule starts one step on
model2 = nn.Linear(2, 1)
opt2 = torch.optim.SGD(model2.parameters(), lr=1.0, momentum=0.9)
sched2 = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[1, 3], gamma=0.5)
for epoch in range(4):
    sched2.step()
    opt2.zero_grad()
    nn.functional.mse_loss(model2(x), y).backward()
    opt2.step()
    print(epoch, sched2.get_last_lr(), sched2.last_epoch)
print(sched2.milestones, sched2.state_dict()['_step_count'])
