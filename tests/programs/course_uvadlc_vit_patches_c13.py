# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 15 "Vision Transformers" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial15/Vision_Transformer.ipynb
# Like the original: img_to_patch (reshape / permute / flatten into patches, flatten_channels
# or not), a pre-LayerNorm AttentionBlock around nn.MultiheadAttention with a GELU MLP and
# dropout, the VisionTransformer (input Linear, cls token and positional embedding as
# nn.Parameter(torch.randn(...)), dropout, transpose(0, 1) for the sequence-first attention,
# the mlp_head on the cls output), AdamW with MultiStepLR, cross-entropy and accuracy.
# Differences: no Lightning / CIFAR10: random 3x16x16 images with labels from a fixed rule,
# patch size 4, embed_dim 16, 2 layers, 10 steps; the attention maps of one layer printed
# with need_weights / average_attn_weights=False; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)


def img_to_patch(x, patch_size, flatten_channels=True):
    B, C, H, W = x.shape
    x = x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)
    x = x.permute(0, 2, 4, 1, 3, 5)
    x = x.flatten(1, 2)
    if flatten_channels:
        x = x.flatten(2, 4)
    return x


class AttentionBlock(nn.Module):
    def __init__(self, embed_dim, hidden_dim, num_heads, dropout=0.0):
        super().__init__()
        self.layer_norm_1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)
        self.layer_norm_2 = nn.LayerNorm(embed_dim)
        self.linear = nn.Sequential(
            nn.Linear(embed_dim, hidden_dim), nn.GELU(), nn.Dropout(dropout),
            nn.Linear(hidden_dim, embed_dim), nn.Dropout(dropout))

    def forward(self, x):
        inp_x = self.layer_norm_1(x)
        x = x + self.attn(inp_x, inp_x, inp_x)[0]
        x = x + self.linear(self.layer_norm_2(x))
        return x


class VisionTransformer(nn.Module):
    def __init__(self, embed_dim, hidden_dim, num_channels, num_heads, num_layers, num_classes,
                 patch_size, num_patches, dropout=0.0):
        super().__init__()
        self.patch_size = patch_size
        self.input_layer = nn.Linear(num_channels * (patch_size**2), embed_dim)
        self.transformer = nn.Sequential(*[AttentionBlock(embed_dim, hidden_dim, num_heads,
                                                          dropout=dropout)
                                           for _ in range(num_layers)])
        self.mlp_head = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, num_classes))
        self.dropout = nn.Dropout(dropout)
        self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, 1 + num_patches, embed_dim))

    def forward(self, x):
        x = img_to_patch(x, self.patch_size)
        B, T, _ = x.shape
        x = self.input_layer(x)
        cls_token = self.cls_token.repeat(B, 1, 1)
        x = torch.cat([cls_token, x], dim=1)
        x = x + self.pos_embedding[:, :T + 1]
        x = self.dropout(x)
        x = x.transpose(0, 1)
        x = self.transformer(x)
        cls = x[0]
        return self.mlp_head(cls)


imgs = torch.randn(12, 3, 16, 16)
labels = (imgs[:, 0, :8].mean(dim=(1, 2)) > imgs[:, 1, 8:].mean(dim=(1, 2))).long() \
    + (imgs[:, 2].amax(dim=(1, 2)) > 2.5).long()
print(labels)
patches = img_to_patch(imgs[:2], patch_size=4, flatten_channels=False)
print(patches.shape, img_to_patch(imgs[:2], 4).shape)
print(patches[0, 5, :, 0, :2])

model = VisionTransformer(embed_dim=16, hidden_dim=32, num_heads=4, num_layers=2,
                          patch_size=4, num_channels=3, num_patches=16, num_classes=3,
                          dropout=0.1)
print(model.transformer[0])
print(sum(p.numel() for p in model.parameters()))
print([n for n, p in model.named_parameters() if p.dim() == 1][:6])
optimizer = optim.AdamW(model.parameters(), lr=3e-3)
lr_scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[5, 8], gamma=0.1)
for step in range(10):
    model.train()
    preds = model(imgs)
    loss = F.cross_entropy(preds, labels)
    acc = (preds.argmax(dim=-1) == labels).float().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    lr_scheduler.step()
    print(f"step {step} loss {loss.item():.5f} acc {acc.item():.3f} lr {lr_scheduler.get_last_lr()}")

model.eval()
with torch.no_grad():
    print(model(imgs[:3]))
    x = model.input_layer(img_to_patch(imgs[:1], 4))
    x = torch.cat([model.cls_token, x], dim=1) + model.pos_embedding
    x = model.transformer[0].layer_norm_1(x.transpose(0, 1))
    out, attn = model.transformer[0].attn(x, x, x, need_weights=True, average_attn_weights=False)
    print(out.shape, attn.shape)
    print(attn[0, :, 0, :4])
    print(attn.sum(-1)[0, :, :3])
