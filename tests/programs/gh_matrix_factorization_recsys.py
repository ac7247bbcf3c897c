# Corpus program, written for gradsh (no code copied). Modelled on the MatrixFactorization
# notebook of https://github.com/KawsarAhmad43/Learnify (user and item nn.Embedding, the
# prediction (u * v).sum(dim=1), MSELoss, one SGD step and 'Loss: ...') and on "Recommendation
# Systems" of https://learn-pytorch.oneoffcoder.com/recommendation-systems.html (a Recommender
# with user and item bias embeddings, score squeezed, BCEWithLogitsLoss on implicit labels,
# AdamW, zero_grad(set_to_none=True), then the scores of every item for a user ranked with
# topk).
# Differences: our own code; synthetic interactions; 80 steps; seeded; printed rounded.
import torch
import torch.nn as nn

torch.manual_seed(61)


class MatrixFactorization(nn.Module):
    def __init__(self, num_users, num_items, embedding_dim=8):
        super().__init__()
        self.user_emb = nn.Embedding(num_users, embedding_dim)
        self.item_emb = nn.Embedding(num_items, embedding_dim)

    def forward(self, user_indices, item_indices):
        return (self.user_emb(user_indices) * self.item_emb(item_indices)).sum(dim=1)


users = torch.tensor([0, 1, 0])
items = torch.tensor([0, 1, 1])
ratings = torch.tensor([5.0, 4.0, 2.0])
model = MatrixFactorization(num_users=2, num_items=2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
preds = model(users, items)
loss = loss_fn(preds, ratings)
loss.backward()
optimizer.step()
print(f"Loss: {loss.item():.4f}")
print(model)


class Recommender(nn.Module):
    def __init__(self, num_users, num_items, embedding_dim=8):
        super().__init__()
        self.user_embedding = nn.Embedding(num_users, embedding_dim)
        self.item_embedding = nn.Embedding(num_items, embedding_dim)
        self.user_bias = nn.Embedding(num_users, 1)
        self.item_bias = nn.Embedding(num_items, 1)

    def forward(self, user_ids, item_ids):
        score = (self.user_embedding(user_ids) * self.item_embedding(item_ids)).sum(dim=1, keepdim=True)
        score = score + self.user_bias(user_ids) + self.item_bias(item_ids)
        return score.squeeze(1)


user_ids = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
item_ids = torch.tensor([0, 1, 1, 2, 2, 3, 0, 3])
labels = torch.tensor([1, 0, 1, 1, 0, 1, 0, 1], dtype=torch.float32)
num_users = int(user_ids.max().item()) + 1
num_items = int(item_ids.max().item()) + 1
rec = Recommender(num_users, num_items)
optimizer = torch.optim.AdamW(rec.parameters(), lr=0.05)
criterion = nn.BCEWithLogitsLoss()
for step in range(80):
    optimizer.zero_grad(set_to_none=True)
    logits = rec(user_ids, item_ids)
    loss = criterion(logits, labels)
    loss.backward()
    optimizer.step()
    if step in {0, 20, 40, 79}:
        print(f"step={step} loss={loss.item():.4f}")
with torch.no_grad():
    probs = torch.sigmoid(rec(user_ids, item_ids))
print(((probs > 0.5).float() == labels).float().mean().item())
with torch.no_grad():
    all_items = torch.arange(num_items)
    scores = rec(torch.zeros(num_items, dtype=torch.long), all_items)
    top = torch.topk(scores, k=2)
print(top.indices.tolist())
print(sum(p.numel() for p in rec.parameters()))
print(rec.user_bias.weight.grad is not None, optimizer.state_dict()["param_groups"][0]["weight_decay"])
