# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# implementations of adaptive optimizers (MIT licence): labml_nn/optimizers/__init__.py
# (GenericAdaptiveOptimizer, a torch.optim.Optimizer subclass with init_state / step_param
# hooks and a @torch.no_grad() step; WeightDecay, decoupled or added to the gradient), adam.py,
# amsgrad.py (torch.maximum(v_max, v, out=v_max) and its synthetic regret experiment),
# radam.py (the rectification term, degenerating to SGD) and ada_belief.py:
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/optimizers
# Like the originals: the class hierarchy Adam -> AMSGrad -> RAdam -> AdaBelief with per-
# parameter state dicts (an int step, zeros_like(..., memory_format=torch.preserve_format)),
# m.mul_(beta1).add_(grad, alpha=...), v.mul_(beta2).addcmul_(grad, grad, value=...),
# param.data.addcdiv_(m, denominator, value=-step_size); AdaBelief's constructor passes its
# arguments positionally as the original does. The synthetic experiment: a one-element
# parameter, the loss 1010x every 101st step and -10x otherwise, clamp_ to [-1, 1].
# Differences: 1,500 synthetic steps instead of 10M with prints instead of labml's tracker;
# the optimizers also train a small MLP on seeded data; labml's Adam is checked against
# torch.optim.Adam with the same eps, and RAdam's rectification terms printed.
import math
from typing import Any, Dict, Optional, Tuple

import torch
from torch import nn
from torch.optim.optimizer import Optimizer


class GenericAdaptiveOptimizer(Optimizer):
    def __init__(self, params, defaults: Dict[str, Any], lr: float, betas: Tuple[float, float], eps: float):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults.update(dict(lr=lr, betas=betas, eps=eps))
        super().__init__(params, defaults)

    def init_state(self, state, group, param):
        pass

    def step_param(self, state, group, grad, param):
        pass

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group['params']:
                if param.grad is None:
                    continue
                grad = param.grad.data
                if grad.is_sparse:
                    raise RuntimeError('GenericAdaptiveOptimizer does not support sparse gradients')
                state = self.state[param]
                if len(state) == 0:
                    self.init_state(state, group, param)
                self.step_param(state, group, grad, param)
        return loss


class WeightDecay:
    def __init__(self, weight_decay: float = 0., weight_decouple: bool = True, absolute: bool = False):
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        self.absolute = absolute
        self.weight_decouple = weight_decouple
        self.weight_decay = weight_decay

    def defaults(self):
        return dict(weight_decay=self.weight_decay)

    def __call__(self, param, grad, group):
        if self.weight_decouple:
            if self.absolute:
                param.data.mul_(1.0 - group['weight_decay'])
            else:
                param.data.mul_(1.0 - group['lr'] * group['weight_decay'])
            return grad
        else:
            if group['weight_decay'] != 0:
                return grad.add(param.data, alpha=group['weight_decay'])
            else:
                return grad


class Adam(GenericAdaptiveOptimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-16,
                 weight_decay: WeightDecay = WeightDecay(), optimized_update: bool = True,
                 defaults: Optional[Dict[str, Any]] = None):
        defaults = {} if defaults is None else defaults
        defaults.update(weight_decay.defaults())
        super().__init__(params, defaults, lr, betas, eps)
        self.weight_decay = weight_decay
        self.optimized_update = optimized_update

    def init_state(self, state, group, param):
        state['step'] = 0
        state['exp_avg'] = torch.zeros_like(param, memory_format=torch.preserve_format)
        state['exp_avg_sq'] = torch.zeros_like(param, memory_format=torch.preserve_format)

    def get_mv(self, state, group, grad):
        beta1, beta2 = group['betas']
        m, v = state['exp_avg'], state['exp_avg_sq']
        m.mul_(beta1).add_(grad, alpha=1 - beta1)
        v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        return m, v

    def get_lr(self, state, group):
        return group['lr']

    def adam_update(self, state, group, param, m, v):
        beta1, beta2 = group['betas']
        bias_correction1 = 1 - beta1 ** state['step']
        bias_correction2 = 1 - beta2 ** state['step']
        lr = self.get_lr(state, group)
        if self.optimized_update:
            denominator = v.sqrt().add_(group['eps'])
            step_size = lr * math.sqrt(bias_correction2) / bias_correction1
            param.data.addcdiv_(m, denominator, value=-step_size)
        else:
            denominator = (v.sqrt() / math.sqrt(bias_correction2)).add_(group['eps'])
            step_size = lr / bias_correction1
            param.data.addcdiv_(m, denominator, value=-step_size)

    def step_param(self, state, group, grad, param):
        grad = self.weight_decay(param, grad, group)
        m, v = self.get_mv(state, group, grad)
        state['step'] += 1
        self.adam_update(state, group, param, m, v)


class AMSGrad(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-16,
                 weight_decay: WeightDecay = WeightDecay(), optimized_update: bool = True,
                 amsgrad=True, defaults=None):
        defaults = {} if defaults is None else defaults
        defaults.update(dict(amsgrad=amsgrad))
        super().__init__(params, lr, betas, eps, weight_decay, optimized_update, defaults)

    def init_state(self, state, group, param):
        super().init_state(state, group, param)
        if group['amsgrad']:
            state['max_exp_avg_sq'] = torch.zeros_like(param, memory_format=torch.preserve_format)

    def get_mv(self, state, group, grad):
        m, v = super().get_mv(state, group, grad)
        if group['amsgrad']:
            v_max = state['max_exp_avg_sq']
            torch.maximum(v_max, v, out=v_max)
            return m, v_max
        else:
            return m, v


class RAdam(AMSGrad):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay: WeightDecay = WeightDecay(), optimized_update: bool = True,
                 amsgrad=False, degenerated_to_sgd=True, defaults=None):
        self.degenerated_to_sgd = degenerated_to_sgd
        super().__init__(params, lr, betas, eps, weight_decay, optimized_update, amsgrad, defaults)

    def step_param(self, state, group, grad, param):
        grad = self.weight_decay(param, grad, group)
        m, v = self.get_mv(state, group, grad)
        state['step'] += 1
        self.r_adam_update(state, group, param, m, v)

    @staticmethod
    def calc_rectification_term(beta2: float, step: int) -> Optional[float]:
        beta2_t = beta2 ** step
        rho_inf = 2 / (1 - beta2) - 1
        rho = rho_inf - 2 * step * beta2_t / (1 - beta2_t)
        if rho >= 5:
            r2 = (rho - 4) / (rho_inf - 4) * (rho - 2) / rho * rho_inf / (rho_inf - 2)
            return math.sqrt(r2)
        else:
            return None

    def r_adam_update(self, state, group, param, m, v):
        beta1, beta2 = group['betas']
        bias_correction1 = 1 - beta1 ** state['step']
        bias_correction2 = 1 - beta2 ** state['step']
        r = self.calc_rectification_term(beta2, state['step'])
        lr = self.get_lr(state, group)
        if r is not None:
            if self.optimized_update:
                denominator = v.sqrt().add_(group['eps'])
                step_size = lr * math.sqrt(bias_correction2) * r / bias_correction1
                param.data.addcdiv_(m, denominator, value=-step_size)
            else:
                denominator = (v.sqrt() / math.sqrt(bias_correction2)).add_(group['eps'])
                step_size = lr * r / bias_correction1
                param.data.addcdiv_(m, denominator, value=-step_size)
        elif self.degenerated_to_sgd:
            step_size = lr / bias_correction1
            param.data.add_(m, alpha=-step_size)


class AdaBelief(RAdam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-16,
                 weight_decay: WeightDecay = WeightDecay(), amsgrad=False,
                 degenerate_to_sgd=True, rectify=True, defaults=None):
        defaults = {} if defaults is None else defaults
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, degenerate_to_sgd, defaults)
        self.rectify = rectify

    def init_state(self, state, group, param):
        state['step'] = 0
        state['exp_avg'] = torch.zeros_like(param, memory_format=torch.preserve_format)
        state['exp_avg_var'] = torch.zeros_like(param, memory_format=torch.preserve_format)
        if group['amsgrad']:
            state['max_exp_avg_var'] = torch.zeros_like(param, memory_format=torch.preserve_format)

    def get_ms(self, state, group, grad):
        beta1, beta2 = group['betas']
        m, s = state['exp_avg'], state['exp_avg_var']
        m.mul_(beta1).add_(grad, alpha=1 - beta1)
        grad_residual = grad - m
        s.mul_(beta2).addcmul_(grad_residual, grad_residual, value=1 - beta2)
        if group['amsgrad']:
            s_max = state['max_exp_avg_var']
            torch.maximum(s_max, s, out=s_max)
            return m, s_max
        else:
            return m, s

    def step_param(self, state, group, grad, param):
        grad = self.weight_decay(param, grad, group)
        m, s = self.get_ms(state, group, grad)
        state['step'] += 1
        if not self.rectify:
            self.adam_update(state, group, param, m, s + group['eps'])
        else:
            self.r_adam_update(state, group, param, m, s + group['eps'])


def synthetic_experiment(is_adam: bool, steps: int = 1500):
    x = nn.Parameter(torch.tensor([.0]))
    x_star = nn.Parameter(torch.tensor([-1]), requires_grad=False)

    def func(t, x_):
        if t % 101 == 1:
            return (1010 * x_).sum()
        else:
            return (-10 * x_).sum()

    if is_adam:
        optimizer = Adam([x], lr=1e-2, betas=(0.9, 0.99))
    else:
        optimizer = AMSGrad([x], lr=1e-2, betas=(0.9, 0.99))
    total_regret = 0
    for step in range(steps):
        regret = func(step, x) - func(step, x_star)
        total_regret += regret.item()
        if (step + 1) % 300 == 0:
            print(f"{'Adam' if is_adam else 'AMSGrad'} step {step + 1}: loss {regret.item():.4f} "
                  f"x {x.item():.6f} regret {total_regret / (step + 1):.6f}")
        regret.backward()
        optimizer.step()
        optimizer.zero_grad()
        x.data.clamp_(-1., +1.)


synthetic_experiment(True)
synthetic_experiment(False)
print([RAdam.calc_rectification_term(0.999, i) for i in (1, 5, 6, 10, 100)])

torch.manual_seed(7)
X = torch.randn(64, 5)
Y = (X[:, :1] * 2 - X[:, 1:2].pow(2) + 0.1 * torch.randn(64, 1))
makers = {
    "Adam": lambda p: Adam(p, lr=0.01),
    "Adam(decay)": lambda p: Adam(p, lr=0.01, weight_decay=WeightDecay(0.1, weight_decouple=False),
                                  optimized_update=False),
    "AMSGrad": lambda p: AMSGrad(p, lr=0.01, weight_decay=WeightDecay(0.05)),
    "RAdam": lambda p: RAdam(p, lr=0.01),
    "AdaBelief": lambda p: AdaBelief(p, lr=0.01),
    "torch Adam": lambda p: torch.optim.Adam(p, lr=0.01, eps=1e-16),
}
finals = {}
for name, make in makers.items():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
    optimizer = make(model.parameters())
    for step in range(40):
        loss = nn.functional.mse_loss(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    finals[name] = [p.detach().clone() for p in model.parameters()]
    state = optimizer.state[model[0].weight]
    print(f"{name:12s} loss {loss.item():.6f} state {sorted(state)} step {state['step']}")
print(optimizer.param_groups[0]['lr'], Adam([nn.Parameter(torch.zeros(1))]).defaults)
print("labml Adam == torch Adam:", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(finals["Adam"], finals["torch Adam"])))
print(max((a - b).abs().max().item() for a, b in zip(finals["Adam"], finals["torch Adam"])) < 1e-5)
try:
    Adam([nn.Parameter(torch.zeros(1))], betas=(1.0, 0.9))
except ValueError as e:
    print("ValueError:", e)
