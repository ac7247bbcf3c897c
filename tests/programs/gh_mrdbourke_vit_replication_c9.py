# Corpus program, written for gradsh (no code copied). Modelled on Daniel Bourke's "Zero to
# Mastery Learn PyTorch", notebook 08 "PyTorch Paper Replicating" (ViT) (MIT):
# https://github.com/mrdbourke/pytorch-deep-learning/blob/main/08_pytorch_paper_replicating.ipynb
# Like the original: PatchEmbedding (a Conv2d with kernel = stride = patch size, Flatten(2, 3),
# permute), the class token and position embedding as nn.Parameters, MultiheadSelfAttentionBlock
# (LayerNorm, nn.MultiheadAttention(batch_first=True) called with need_weights=False), MLPBlock
# (LayerNorm, Linear, GELU, Dropout), TransformerEncoderBlock with residual adds, the
# equivalent nn.TransformerEncoderLayer(activation="gelu", batch_first=True, norm_first=True),
# and the ViT (class_embedding.expand, cat, dropout, a Sequential of blocks, a LayerNorm +
# Linear classifier on token 0); set_seeds; training with Adam(betas=(0.9, 0.999),
# weight_decay=0.3) and CrossEntropyLoss, printing the losses.
# Differences: tiny sizes (32x32 images, patch 8, embedding 24, 4 heads, MLP 48, 2 layers,
# 3 classes) and 6 training steps on a synthetic batch instead of the pizza/steak/sushi data;
# dropout 0 so the losses are deterministic; losses printed at full precision.
import torch
from torch import nn


def set_seeds(seed: int = 42):
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)


class PatchEmbedding(nn.Module):
    def __init__(self, in_channels: int = 3, patch_size: int = 16, embedding_dim: int = 768):
        super().__init__()
        self.patch_size = patch_size
        self.patcher = nn.Conv2d(in_channels=in_channels, out_channels=embedding_dim,
                                 kernel_size=patch_size, stride=patch_size, padding=0)
        self.flatten = nn.Flatten(start_dim=2, end_dim=3)

    def forward(self, x):
        image_resolution = x.shape[-1]
        assert image_resolution % self.patch_size == 0, \
            f"Input image size must be divisible by patch size, image shape: {image_resolution}, patch size: {self.patch_size}"
        x_patched = self.patcher(x)
        x_flattened = self.flatten(x_patched)
        return x_flattened.permute(0, 2, 1)


class MultiheadSelfAttentionBlock(nn.Module):
    def __init__(self, embedding_dim: int = 768, num_heads: int = 12, attn_dropout: float = 0):
        super().__init__()
        self.layer_norm = nn.LayerNorm(normalized_shape=embedding_dim)
        self.multihead_attn = nn.MultiheadAttention(embed_dim=embedding_dim, num_heads=num_heads,
                                                    dropout=attn_dropout, batch_first=True)

    def forward(self, x):
        x = self.layer_norm(x)
        attn_output, _ = self.multihead_attn(query=x, key=x, value=x, need_weights=False)
        return attn_output


class MLPBlock(nn.Module):
    def __init__(self, embedding_dim: int = 768, mlp_size: int = 3072, dropout: float = 0.1):
        super().__init__()
        self.layer_norm = nn.LayerNorm(normalized_shape=embedding_dim)
        self.mlp = nn.Sequential(
            nn.Linear(in_features=embedding_dim, out_features=mlp_size),
            nn.GELU(),
            nn.Dropout(p=dropout),
            nn.Linear(in_features=mlp_size, out_features=embedding_dim),
            nn.Dropout(p=dropout))

    def forward(self, x):
        x = self.layer_norm(x)
        return self.mlp(x)


class TransformerEncoderBlock(nn.Module):
    def __init__(self, embedding_dim: int = 768, num_heads: int = 12, mlp_size: int = 3072,
                 mlp_dropout: float = 0.1, attn_dropout: float = 0):
        super().__init__()
        self.msa_block = MultiheadSelfAttentionBlock(embedding_dim=embedding_dim,
                                                     num_heads=num_heads, attn_dropout=attn_dropout)
        self.mlp_block = MLPBlock(embedding_dim=embedding_dim, mlp_size=mlp_size, dropout=mlp_dropout)

    def forward(self, x):
        x = self.msa_block(x) + x
        x = self.mlp_block(x) + x
        return x


class ViT(nn.Module):
    def __init__(self, img_size: int = 224, in_channels: int = 3, patch_size: int = 16,
                 num_transformer_layers: int = 12, embedding_dim: int = 768, mlp_size: int = 3072,
                 num_heads: int = 12, attn_dropout: float = 0, mlp_dropout: float = 0.1,
                 embedding_dropout: float = 0.1, num_classes: int = 1000):
        super().__init__()
        assert img_size % patch_size == 0, \
            f"Image size must be divisible by patch size, image size: {img_size}, patch size: {patch_size}."
        self.num_patches = (img_size * img_size) // patch_size ** 2
        self.class_embedding = nn.Parameter(data=torch.randn(1, 1, embedding_dim), requires_grad=True)
        self.position_embedding = nn.Parameter(data=torch.randn(1, self.num_patches + 1, embedding_dim),
                                               requires_grad=True)
        self.embedding_dropout = nn.Dropout(p=embedding_dropout)
        self.patch_embedding = PatchEmbedding(in_channels=in_channels, patch_size=patch_size,
                                              embedding_dim=embedding_dim)
        self.transformer_encoder = nn.Sequential(*[
            TransformerEncoderBlock(embedding_dim=embedding_dim, num_heads=num_heads,
                                    mlp_size=mlp_size, mlp_dropout=mlp_dropout)
            for _ in range(num_transformer_layers)])
        self.classifier = nn.Sequential(nn.LayerNorm(normalized_shape=embedding_dim),
                                        nn.Linear(in_features=embedding_dim, out_features=num_classes))

    def forward(self, x):
        batch_size = x.shape[0]
        class_token = self.class_embedding.expand(batch_size, -1, -1)
        x = self.patch_embedding(x)
        x = torch.cat((class_token, x), dim=1)
        x = self.position_embedding + x
        x = self.embedding_dropout(x)
        x = self.transformer_encoder(x)
        return self.classifier(x[:, 0])


set_seeds()
image = torch.rand(3, 32, 32)
patchify = PatchEmbedding(in_channels=3, patch_size=8, embedding_dim=24)
print(f"Input image shape: {image.unsqueeze(0).shape}")
patch_embedded_image = patchify(image.unsqueeze(0))
print(f"Output patch embedding shape: {patch_embedded_image.shape}")
batch_size = patch_embedded_image.shape[0]
embedding_dimension = patch_embedded_image.shape[-1]
class_token = nn.Parameter(torch.ones(batch_size, 1, embedding_dimension), requires_grad=True)
patch_embedded_image_with_class_embedding = torch.cat((class_token, patch_embedded_image), dim=1)
print(f"Sequence of patch embeddings with class token prepended shape: "
      f"{patch_embedded_image_with_class_embedding.shape} -> [batch_size, number_of_patches, embedding_dimension]")
number_of_patches = int((32 * 32) / 8 ** 2)
position_embedding = nn.Parameter(torch.ones(1, number_of_patches + 1, embedding_dimension), requires_grad=True)
patch_and_position_embedding = patch_embedded_image_with_class_embedding + position_embedding
print(patch_and_position_embedding.shape)
msa = MultiheadSelfAttentionBlock(embedding_dim=24, num_heads=4)
through_msa = msa(patch_and_position_embedding)
print(f"Input shape of MSA block: {patch_and_position_embedding.shape}")
print(f"Output shape MSA block: {through_msa.shape}")
print(through_msa[0, :2])
mlp_block = MLPBlock(embedding_dim=24, mlp_size=48, dropout=0.0)
through_mlp = mlp_block(through_msa)
print(through_mlp.shape, through_mlp[0, 0])
block = TransformerEncoderBlock(embedding_dim=24, num_heads=4, mlp_size=48, mlp_dropout=0.0)
print(block)
print(block(patch_and_position_embedding)[0, 0])
torch_layer = nn.TransformerEncoderLayer(d_model=24, nhead=4, dim_feedforward=48, dropout=0.0,
                                         activation="gelu", batch_first=True, norm_first=True)
print(torch_layer)
out = torch_layer(patch_and_position_embedding)
print(out[0, 0], out.grad_fn.name())

set_seeds()
vit = ViT(img_size=32, patch_size=8, num_transformer_layers=2, embedding_dim=24, mlp_size=48,
          num_heads=4, mlp_dropout=0.0, embedding_dropout=0.0, num_classes=3)
print(sum(p.numel() for p in vit.parameters()))
images = torch.rand(6, 3, 32, 32)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
optimizer = torch.optim.Adam(params=vit.parameters(), lr=3e-3, betas=(0.9, 0.999), weight_decay=0.3)
loss_fn = torch.nn.CrossEntropyLoss()
for step in range(6):
    logits = vit(images)
    loss = loss_fn(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item(), logits.argmax(dim=1).tolist())
vit.eval()
with torch.inference_mode():
    probs = torch.softmax(vit(images[:2]), dim=1)
print(probs)
