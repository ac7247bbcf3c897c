# Corpus program, written for gradsh (no code copied). Modelled on Andrej Karpathy's "Neural
# Networks: Zero to Hero" lecture 2, "The spelled-out intro to language modeling: building
# makemore" (MIT): https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/makemore/makemore_part1_bigrams.ipynb
# Like the notebook: a (27, 27) int32 count matrix N filled from the bigrams of '.'-padded
# names, stoi / itos with '.' at index 0, p = N[0].float() normalised and sampled with
# torch.multinomial(p, num_samples=1, replacement=True, generator=g) where g =
# torch.Generator().manual_seed(2147483647); P = (N + 1).float() with
# P /= P.sum(1, keepdims=True); sampled names; the average negative log likelihood (nll and
# nll / n printed with f'{nll=}'); then the neural-network version: xs / ys tensors,
# F.one_hot(xs, num_classes=27).float(), W = torch.randn((27, 27), generator=g,
# requires_grad=True), logits.exp() as counts, probs normalised, loss = -probs[
# torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean(), W.grad = None, backward and
# W.data += -50 * W.grad, the loss printed each step, and names sampled from the trained net.
# Differences: our own code; a short built-in list of names instead of names.txt (which
# covers all 26 letters, so the vocabulary is the same 27 characters); 20 descent steps.
import torch
import torch.nn.functional as F

words = ("emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily "
         "elizabeth mila ella avery sofia camila aria scarlett victoria madison luna grace "
         "chloe penelope layla riley zoey nora lily eleanor hannah lillian addison aubrey "
         "ellie stella natalie zoe leah hazel violet aurora savannah audrey brooklyn bella "
         "claire skylar lucy paisley everly anna caroline nova genesis emilia kennedy "
         "maya willow kinsley naomi aaliyah elena sarah ariana allison gabriella alice "
         "madelyn cora ruby eva serenity autumn adeline hailey gianna valentina isla eliana "
         "quinn nevaeh ivy sadie piper lydia alexa josephine emery julia delilah arianna "
         "vivian kaylee sophie brielle madeline jaxon xavier quentin").split()
print(len(words), min(len(w) for w in words), max(len(w) for w in words))

N = torch.zeros((27, 27), dtype=torch.int32)
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
print(len(chars), itos[1], itos[26])
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N[0])
print(N.sum(), N.max(), N.dtype)

p = N[0].float()
p = p / p.sum()
print(p)
g = torch.Generator().manual_seed(2147483647)
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
print(ix, itos[ix])
g = torch.Generator().manual_seed(2147483647)
print(torch.multinomial(torch.rand(3, generator=g), num_samples=20, replacement=True, generator=g))

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum(), P.shape)
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

log_likelihood = 0.0
n = 0
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
print(f"{log_likelihood=}")
nll = -log_likelihood
print(f"{nll=}")
print(f"{nll/n}")

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples: ", num)
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
for k in range(20):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    print(f"{loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad

g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
        logits = xenc @ W
        counts = logits.exp()
        p = counts / counts.sum(1, keepdims=True)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
