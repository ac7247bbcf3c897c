# Corpus program modelled on the Stack Overflow question "How to share weights between modules
# in Pytorch?" (assigning the encoder's transposed weight to the decoder raises; wrapping it in
# nn.Parameter copies instead of sharing; the tied autoencoder built with .data), as mirrored
# at https://www.developerload.com/how-to-share-weights-between-modules-in-pytorch
# Changed: sizes 6 -> 3, a seed, errors caught and printed, data_ptr comparisons printed as
# booleans, and the functional form (F.linear with weight.t()) that does share. Written for
# gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(6, 3, bias=False))
decoder = nn.Sequential(nn.Linear(3, 6, bias=False))
try:
    decoder[0].weight = encoder[0].weight.t()
except TypeError as e:
    print(e)

decoder[0].weight = nn.Parameter(encoder[0].weight.t())
print(decoder[0].weight.shape, decoder[0].weight.data_ptr() == encoder[0].weight.data_ptr())
with torch.no_grad():
    encoder[0].weight.add_(1.0)
print(torch.equal(decoder[0].weight.t(), encoder[0].weight))


class TiedAutoEncoderOffTheShelf(nn.Module):
    def __init__(self, inp, out, weight):
        super().__init__()
        self.encoder = nn.Linear(inp, out, bias=False)
        self.decoder = nn.Linear(out, inp, bias=False)

        # tie the weights
        self.encoder.weight.data = weight.clone()
        self.decoder.weight.data = self.encoder.weight.data.transpose(0, 1)

    def forward(self, input):
        encoded_feats = self.encoder(input)
        reconstructed_output = self.decoder(encoded_feats)
        return encoded_feats, reconstructed_output


w = torch.randn(3, 6)
model = TiedAutoEncoderOffTheShelf(6, 3, w)
x = torch.randn(4, 6)
enc, rec = model(x)
loss = F.mse_loss(rec, x)
loss.backward()
print(loss)
print(model.encoder.weight.grad)
print(model.decoder.weight.grad.t())
opt = torch.optim.SGD(model.parameters(), lr=0.5)
opt.step()
print(torch.equal(model.decoder.weight.t(), model.encoder.weight))


class TiedFunctional(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out, inp) * 0.1)

    def forward(self, input):
        return F.linear(F.linear(input, self.weight), self.weight.t())


tied = TiedFunctional(6, 3)
loss = F.mse_loss(tied(x), x)
loss.backward()
print(loss, tied.weight.grad)
print([n for n, _ in tied.named_parameters()])
