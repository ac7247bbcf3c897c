# Corpus program modelled on the Stack Overflow questions "Evaluating pytorch models: with
# torch.no_grad vs model.eval()" (https://stackoverflow.com/questions/55627780) and "What does
# model.eval() do in pytorch?" (https://stackoverflow.com/questions/60018578): eval() switches
# Dropout and BatchNorm to inference behaviour but still records the graph; no_grad stops the
# recording but keeps dropout on; both together for evaluation; the training flags of every
# submodule after train()/eval().
# Changed: a small synthetic model and batch, a seed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(6, 2))
print(model)
x = torch.randn(5, 4)

out_train = model(x)
print(out_train.requires_grad, out_train.grad_fn)
print(model[1].running_mean)
print(model[1].num_batches_tracked)

with torch.no_grad():
    out_ng = model(x)
print(out_ng.requires_grad, out_ng.grad_fn)
print(model[1].num_batches_tracked)

model.eval()
print([m.training for m in model.modules()])
out_eval = model(x)
print(out_eval.requires_grad, out_eval.grad_fn)
out_eval2 = model(x)
print(torch.equal(out_eval, out_eval2))
print(model[1].num_batches_tracked)
print(out_eval)

with torch.no_grad():
    out_both = model(x)
print(out_both.requires_grad, torch.equal(out_both, out_eval.detach()))

model.train()
print([m.training for m in model.modules()])
o1 = model(x)
o2 = model(x)
print(torch.equal(o1, o2))
model[3].eval()
print(model.training, model[3].training)
with torch.inference_mode():
    o3 = model(x)
print(o3.requires_grad, o3.is_inference())
print(model[1].running_var)
