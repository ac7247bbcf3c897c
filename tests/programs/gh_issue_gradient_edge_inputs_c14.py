# Corpus program modelled on the PyTorch pull request "Allow specifiying inputs as GradientEdge
# in autograd APIs" and its test_grad_to_node (the gradient w.r.t. a tensor equals the gradient
# w.r.t. GradientEdge(grad_fn, output_nr): for an op's node, a leaf's AccumulateGrad node, a
# custom Function, a multi-output op (var_mean, as the review asked) and a tensor changed in
# place afterwards, whose original value the edge still names):
# https://github.com/pytorch/pytorch/pull/110867
# Changed: the test's assertions become printed values and booleans; get_gradient_edge is used
# next to the hand-built edge; a seed; errors caught and printed. Written for gradsh.
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge

torch.manual_seed(0)


def check_matches(out, inp):
    ref = torch.autograd.grad(out.sum(), inp, retain_graph=True)
    grad_fn = inp.grad_fn if inp.grad_fn else inp.clone().grad_fn.next_functions[0][0]
    edge = GradientEdge(grad_fn, inp.output_nr)
    new = torch.autograd.grad(out.sum(), edge, retain_graph=True)
    print(type(grad_fn).__name__, inp.output_nr, ref[0], torch.equal(ref[0], new[0]))
    return new


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


a = torch.rand(2, requires_grad=True)
a2 = a + 2
check_matches(a2.exp(), a2)                    # a regular node
check_matches(a2.exp(), a)                     # AccumulateGrad
c = Double.apply(a)
check_matches(c.pow(2), c)                     # custom Function
var, mean = torch.var_mean(a2 * torch.arange(1., 3.))
check_matches(var * 3 + mean, mean)            # output 1 of a two-output node
check_matches(var * 3 + mean, var)

b = a * 3
edge = get_gradient_edge(b)
print(edge)
b.mul_(5)                                      # b's grad_fn changes, the edge does not
out = (b * b).sum()
print(torch.autograd.grad(out, edge, retain_graph=True))
print(torch.autograd.grad(out, b, retain_graph=True))
print(torch.autograd.grad(out, [get_gradient_edge(a), a]))

leaf_edge = get_gradient_edge(a)
print(leaf_edge.node.variable is a, leaf_edge.output_nr, leaf_edge.ownership_token)
fn_edge = get_gradient_edge(Double.apply(a))
print(type(fn_edge.node).__name__, fn_edge.ownership_token is not None)
try:
    get_gradient_edge(torch.ones(2))
except RuntimeError as e:
    print(e)
unused = get_gradient_edge(torch.rand(2, requires_grad=True) * 1)
print(torch.autograd.grad((a * a).sum(), [a, unused], allow_unused=True))
try:
    torch.autograd.grad((a * a).sum(), [unused], materialize_grads=True)
except RuntimeError as e:
    print(e)
