# Corpus program modelled on the 51CTO Q&A post on optimizer.param_groups
# (https://blog.51cto.com/u_15274944/2921759, itself after the Stack Overflow answer on
# add_param_group): print(o.param_groups) for Adam on one tensor, add_param_group for a second
# with its own options, read and set the learning rate through param_groups[i]["lr"], and the
# optimizer reprs the post shows; get_last_lr after a scheduler step.
# Changed: a seed, 3x3 tensors as in the post; more optimizers' reprs and one training step.
import torch
import torch.optim as optim

torch.manual_seed(0)
w1 = torch.randn(3, 3)
w1.requires_grad = True
w2 = torch.randn(3, 3)
w2.requires_grad = True
o = optim.Adam([w1])
print(o.param_groups)
o.add_param_group({'params': w2, 'lr': 0.01, 'weight_decay': 0.1})
print(o.param_groups)
print(o)
print(len(o.param_groups), sorted(o.param_groups[0].keys()))
for param_group in o.param_groups:
    param_group["lr"] = 0.5
print(o.param_groups[0]["lr"], o.param_groups[1]["lr"])
(w1.sum() + (w2 ** 2).sum()).backward()
o.step()
print(w1, w2)
print(o.state_dict()['param_groups'])
print({k: (v['step'], v['exp_avg'].shape) for k, v in o.state_dict()['state'].items()})
try:
    o.add_param_group({'params': w1})
except ValueError as e:
    print("ValueError:", e)
try:
    o.add_param_group({'params': torch.randn(2), 'lr': 0.1})
except ValueError as e:
    print("ValueError:", e)

sgd = optim.SGD([{'params': [w1]}, {'params': [w2], 'lr': 1e-3, 'momentum': 0.9}], lr=0.1,
                nesterov=False, weight_decay=1e-4)
print(sgd)
sched = optim.lr_scheduler.StepLR(sgd, step_size=1, gamma=0.1)
print(sched.get_last_lr())
sgd.step()
sched.step()
print(sched.get_last_lr(), [g['lr'] for g in sgd.param_groups], [g['initial_lr'] for g in sgd.param_groups])
for cls, kw in ((optim.AdamW, {}), (optim.RMSprop, {'centered': True}), (optim.Adagrad, {'lr_decay': 0.01}),
                (optim.Adadelta, {}), (optim.NAdam, {'momentum_decay': 0.004}), (optim.Rprop, {})):
    opt = cls([w1], **kw)
    print(opt)
