# Found by corpus10 (FastChat-style generation under @torch.inference_mode(), its token ids
# then used under no_grad): ops that save an index (embedding, advanced indexing, gather,
# index_select, cross_entropy's target) refuse an inference tensor only when they record a
# graph; under no_grad, or when no input needs a gradient, PyTorch saves nothing and computes.
import torch
import torch.nn.functional as F

with torch.inference_mode():
    idx = torch.tensor([1, 2])
    x = torch.ones(2, 3)
torch.manual_seed(0)
emb = torch.nn.Embedding(4, 3)
lin = torch.nn.Linear(3, 3)


def show(label, f):
    try:
        r = f()
        print(label, "->", r.requires_grad, r.is_inference(), r.shape)
    except RuntimeError as e:
        print(label, "->", type(e).__name__ + ":", str(e)[:60])


def attempts(mode):
    show(mode + " embedding", lambda: emb(idx))
    show(mode + " F.embedding", lambda: F.embedding(idx, emb.weight))
    show(mode + " linear", lambda: lin(x))
    show(mode + " index", lambda: lin.weight[idx])
    show(mode + " index_select", lambda: lin.weight.index_select(0, idx))
    show(mode + " gather", lambda: lin.weight.gather(0, idx[None].expand(3, 2).T))
    show(mode + " cross_entropy", lambda: F.cross_entropy(lin(x.clone()), idx))
    show(mode + " nll_loss", lambda: F.nll_loss(lin(x.clone()), idx))
    show(mode + " sin", lambda: x.sin())


attempts("grad")
with torch.no_grad():
    attempts("no_grad")
emb.weight.requires_grad_(False)
lin.requires_grad_(False)
attempts("frozen")
