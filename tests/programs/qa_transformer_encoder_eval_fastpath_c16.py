# Corpus program modelled on the PyTorch-forum / Stack Overflow questions "TransformerEncoder
# gives different outputs in eval mode / under torch.no_grad" and "src_key_padding_mask makes
# padded positions zero in eval" (the encoder's inference fast path, which returns a nested
# tensor's zeros at padded positions when enable_nested_tensor is on): an nn.TransformerEncoder
# with batch_first=True run in train mode, in eval mode with and without grad, with a padding
# mask, and a short training loop.
# Changed: tiny sizes, a seed, random token embeddings instead of the askers' data; outputs are
# rounded to 4 decimals where the fast path's kernels (different summation order) are compared
# with the slow path. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1,
                                   batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2)
print(enc)
x = torch.randn(2, 5, 8)
mask = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])

enc.train()
out_train = enc(x, src_key_padding_mask=mask)
print(out_train.shape, out_train.grad_fn is not None)
print(out_train[0, 0])

enc.eval()
out_eval = enc(x, src_key_padding_mask=mask)
print(out_eval[0].round(decimals=4))
with torch.no_grad():
    out_ng = enc(x, src_key_padding_mask=mask)
print(out_ng.is_nested, out_ng.shape)
print(out_ng[0].round(decimals=4))
print(out_ng[1, 4].round(decimals=4))
print((out_eval[1] - out_ng[1]).abs().max() < 1e-5)

causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
with torch.no_grad():
    out_c = enc(x, mask=causal, is_causal=True)
print(out_c[0, :2].round(decimals=4))

enc.train()
opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
target = torch.randn(2, 5, 8)
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(enc(x, src_key_padding_mask=mask), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
