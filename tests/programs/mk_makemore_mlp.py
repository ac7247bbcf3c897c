# Corpus program, written for gradsh (no code copied). Modelled on Andrej Karpathy's "Neural
# Networks: Zero to Hero" lecture 3, "Building makemore Part 2: MLP" (MIT):
# https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/makemore/makemore_part2_mlp.ipynb
# Like the notebook: block_size = 3 context windows built by build_dataset (X, Y as int64
# tensors), a random.seed(42) shuffle and an 80/10/10 split, g =
# torch.Generator().manual_seed(2147483647), an embedding table C = torch.randn((27, 10),
# generator=g), W1 (30, 200), b1, W2 (200, 27), b2, the parameter count with p.nelement(),
# p.requires_grad = True, minibatches ix = torch.randint(0, Xtr.shape[0], (32,)), emb =
# C[Xtr[ix]], h = torch.tanh(emb.view(-1, 30) @ W1 + b1), logits = h @ W2 + b2,
# F.cross_entropy, p.grad = None, backward, p.data += -lr * p.grad with a step-decayed lr,
# the train and dev losses, and names sampled with torch.multinomial from the trained model.
# Differences: our own code; a short built-in list of names instead of names.txt; 300 steps
# with lr 0.1 then 0.05; the loss printed every 50 steps with 4 decimals.
import random

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
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


random.seed(42)
random.shuffle(words)
n1 = int(0.8 * len(words))
n2 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])
print(Xtr[:3], Ytr[:3])

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 200), generator=g)
b1 = torch.randn(200, generator=g)
W2 = torch.randn((200, 27), generator=g)
b2 = torch.randn(27, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

emb = C[Xtr[:5]]
print(emb.shape, emb.view(-1, 30).shape, torch.cat(torch.unbind(emb, 1), 1).shape)
lossi = []
for i in range(300):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 200 else 0.05
    for p in parameters:
        p.data += -lr * p.grad
    lossi.append(loss.log10().item())
    if i % 50 == 0:
        print(f"{i:5d} {loss.item():.4f}")


@torch.no_grad()
def split_loss(X, Y):
    emb = C[X]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Y)


print(f"train {split_loss(Xtr, Ytr).item():.4f}")
print(f"dev {split_loss(Xdev, Ydev).item():.4f}")

g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(5):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0:
            break
    print("".join(itos[i] for i in out))
print(len(lossi))
