# Found by corpus10 (YOLOv5's build_targets, gj.clamp_(0, gain[3] - 1) on a long tensor): a Python
# number with a plain 0-dim tensor bound takes the Number overload (the tensor read as a
# number, other mixes refused), and clamp_'s cast check on an integral tensor names its C++
# type ("long int", "signed char" ...).
import torch
x=torch.tensor([1,2,3])
for l,f in [('min',lambda y: y.clamp_(min=1.5)),('max',lambda y: y.clamp_(max=1.5)),('both',lambda y: y.clamp_(0.5,1.5)),('clip_',lambda y: y.clip_(0.5)),
  ('tmin',lambda y: y.clamp_(min=torch.tensor(1.5))),('int8',lambda y: y.to(torch.int8).clamp_(min=1.5)),('int32',lambda y: y.int().clamp_(min=1.5)),('bool',lambda y: (y>1).clamp_(min=0.5)),('u8',lambda y: y.to(torch.uint8).clamp_(min=0.5)),('i16',lambda y: y.short().clamp_(min=0.5)),
  ('cmin_',lambda y: y.clamp_min_(1.5)),('cmax_',lambda y: y.clamp_max_(1.5)), ('int min', lambda y: y.clamp_(min=True)), ('bool int', lambda y: (y>1).clamp_(min=1)), ('int complex', lambda y: y.clamp_(min=1.0, max=2)), ('ok', lambda y: y.clamp_(min=2)), ('0d', lambda y: y[0].clamp_(max=0.5)), ('float', lambda y: y.float().clamp_(min=1.5))]:
  try: r=f(x.clone()); print(l, 'OK', r)
  except Exception as e: print(l, type(e).__name__, e)
x=torch.tensor([1.,2,3])
xi=torch.tensor([1,2,3])
for l,f in [('0,t0f', lambda: xi.clone().clamp_(0, torch.tensor(2.5))), ('0,t0i', lambda: xi.clone().clamp_(0, torch.tensor(2))), ('0,t1', lambda: xi.clone().clamp_(0, torch.tensor([1,2,2]))),
 ('t0,1', lambda: xi.clone().clamp_(torch.tensor(1), 2)), ('f:0,t1', lambda: x.clone().clamp_(0, torch.tensor([1.,2,2]))), ('f:0,t0', lambda: x.clone().clamp_(0.5, torch.tensor(2.))),
 ('clamp 0,t0', lambda: xi.clamp(0, torch.tensor(2))), ('clamp 0,t1', lambda: x.clamp(0, torch.tensor([1.,2,2]))), ('clamp t0,t0', lambda: xi.clamp(torch.tensor(0), torch.tensor(2.5))),
 ('clamp min=0 max=t', lambda: x.clamp(min=0, max=torch.tensor([1.,2,2]))), ('grad', lambda: torch.ones(3, requires_grad=True).clamp(0, torch.tensor(0.5)).grad_fn), ('grad t1', lambda: torch.ones(3, requires_grad=True).clamp(0, torch.tensor([0.5,2,2])).grad_fn),
 ('rg', lambda: x.clamp(0, torch.tensor(2., requires_grad=True))), ('clamp t0 f, int', lambda: xi.clamp(torch.tensor(0.5), 2)), ('clamp t0 i, f', lambda: xi.clamp(torch.tensor(0), 2.5)),
 ('kw', lambda: x.clamp(min=0, max=torch.tensor(2.))), ('torch.clamp', lambda: torch.clamp(xi, 0, torch.tensor(2))), ('clip', lambda: x.clip(0, torch.tensor(2.))), ('max only t0', lambda: x.clamp(max=torch.tensor(2.)).dtype)]:
  try: print(l, f())
  except Exception as e: print(l, type(e).__name__, str(e))
