# Corpus program modelled on the PyTorch issue "Adding max_norm constraint to an Embedding
# layer leads to an error" (https://github.com/pytorch/pytorch/issues/30899): a position
# embedding with max_norm=3.0 looked up with torch.arange(...).repeat(batch_size, 1), summed
# over positions and fed to a linear classifier with log_softmax; the report saw "leaf
# variable has been moved into the graph interior" on the CPU for batch sizes of 7 and more.
# The program runs the reporter's model for several batch sizes and prints the loss, the
# weight norms and the gradient sums (or the error, caught and printed).
# Changed: small sizes (max_separation 15, embedding 6), a seed, NLL loss on fixed labels.
# Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DDImodel(nn.Module):
    def __init__(self, max_separation=15, position_embedding_size=6, output_classes=5):
        super(DDImodel, self).__init__()
        self.max_separation = max_separation
        self.position_embedding = nn.Embedding(max_separation, position_embedding_size,
                                               max_norm=3.0)
        self.hidden2class = nn.Linear(position_embedding_size, output_classes)

    def forward(self, inputs):
        batch_size = inputs.shape[0]
        positions = torch.arange(0, self.max_separation).repeat(batch_size, 1)
        out = self.position_embedding(positions)
        out = torch.sum(out, dim=1)
        out = self.hidden2class(out)
        return F.log_softmax(out, dim=1)


for batch_size in (1, 6, 7, 9):
    torch.manual_seed(0)
    model = DDImodel()
    with torch.no_grad():
        model.position_embedding.weight.mul_(2.0)
    print(batch_size, model.position_embedding.weight.norm(dim=1)[:4])
    inputs = torch.zeros(batch_size, 3)
    target = torch.arange(batch_size) % 5
    try:
        out = model(inputs)
        loss = F.nll_loss(out, target)
        loss.backward()
        print(loss.item(), model.position_embedding.weight.grad.sum().item())
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(model.position_embedding.weight.norm(dim=1)[:4])
    print(model.position_embedding.weight.is_leaf, model.position_embedding.weight._version > 0)
