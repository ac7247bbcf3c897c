# Corpus program, written for gradsh (no code copied). Modelled on Stanford CS231n's
# assignment 3 notebooks "StyleTransfer-PyTorch" and "NetworkVisualization-PyTorch":
# https://github.com/cs231n/cs231n.github.io/blob/master/assignments/2023/assignment3.md
# Like the notebooks: extract_features running the image through the feature extractor's
# children and keeping each output; content_loss = weight * sum((current - original) ** 2);
# gram_matrix through view(N, C, H * W) and bmm with the transpose, normalised by H * W * C;
# style_loss summed over chosen layers; tv_loss from shifted differences; the style-transfer
# loop optimising the image itself with Adam, the learning rate lowered at decay_lr_at by
# building a new Adam, the image clamped through img.data.clamp_(-1.5, 1.5); then saliency
# maps (scores.gather(1, y.view(-1, 1)).squeeze(), backward of the sum, X.grad.abs() and
# max over channels), a fooling image made by gradient ascent on the target score with
# normalised steps (dX = learning_rate * g / g.norm()), and class visualisation with jitter
# (torch.cat of slices, as the notebook's jitter helper) and L2 regularisation.
# Differences: a small random convolutional network (frozen with requires_grad_(False))
# instead of SqueezeNet, 16x16 random images instead of photos; 12 iterations; no
# blurring (the notebook's uses scipy); seeds; results printed instead of shown.
import torch
import torch.nn as nn

torch.manual_seed(0)
dtype = torch.FloatTensor

cnn = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5),
)
for param in cnn.parameters():
    param.requires_grad_(False)
features_net = cnn[:7]


def extract_features(x, cnn):
    features = []
    prev_feat = x
    for i, module in enumerate(cnn._modules.values()):
        next_feat = module(prev_feat)
        features.append(next_feat)
        prev_feat = next_feat
    return features


def content_loss(content_weight, content_current, content_original):
    return content_weight * torch.sum((content_current - content_original) ** 2)


def gram_matrix(features, normalize=True):
    N, C, H, W = features.size()
    features = features.view(N, C, H * W)
    gram = torch.bmm(features, features.transpose(1, 2))
    if normalize:
        gram = gram / (H * W * C)
    return gram


def style_loss(feats, style_layers, style_targets, style_weights):
    loss = 0
    for i, layer in enumerate(style_layers):
        loss += style_weights[i] * torch.sum((gram_matrix(feats[layer]) - style_targets[i]) ** 2)
    return loss


def tv_loss(img, tv_weight):
    h = torch.sum((img[:, :, 1:, :] - img[:, :, :-1, :]) ** 2)
    w = torch.sum((img[:, :, :, 1:] - img[:, :, :, :-1]) ** 2)
    return tv_weight * (h + w)


content_img = torch.randn(1, 3, 16, 16)
style_img = torch.randn(1, 3, 16, 16) * 0.5 + 0.3
content_layer = 3
content_weight = 5e-2
style_layers = (1, 4, 6)
style_weights = (2000, 500, 12)
tv_weight = 5e-2

feats = extract_features(content_img, features_net)
content_target = feats[content_layer].clone()
feats = extract_features(style_img, features_net)
style_targets = [gram_matrix(feats[idx].clone()) for idx in style_layers]
print(gram_matrix(feats[1]).shape, style_targets[0][0, :2, :4])

img = content_img.clone().type(dtype)
img.requires_grad_()
initial_lr = 3.0
decayed_lr = 0.1
decay_lr_at = 8
optimizer = torch.optim.Adam([img], lr=initial_lr)
for t in range(12):
    if t < 10:
        img.data.clamp_(-1.5, 1.5)
    optimizer.zero_grad()
    feats = extract_features(img, features_net)
    c_loss = content_loss(content_weight, feats[content_layer], content_target)
    s_loss = style_loss(feats, style_layers, style_targets, style_weights)
    t_loss = tv_loss(img, tv_weight)
    loss = c_loss + s_loss + t_loss
    loss.backward()
    if t == decay_lr_at:
        optimizer = torch.optim.Adam([img], lr=decayed_lr)
    optimizer.step()
    if t % 3 == 0:
        print('Iteration {}: content {:.4f} style {:.4f} tv {:.4f}'.format(t, c_loss.item(), s_loss.item(), t_loss.item()))
print(img[0, 0, :2, :4])


def compute_saliency_maps(X, y, model):
    model.eval()
    X.requires_grad_()
    scores = model(X)
    scores = scores.gather(1, y.view(-1, 1)).squeeze()
    scores.backward(torch.ones_like(scores))
    saliency, _ = torch.max(X.grad.abs(), dim=1)
    return saliency


X = torch.randn(4, 3, 16, 16)
y = torch.tensor([0, 1, 2, 3])
saliency = compute_saliency_maps(X.clone(), y, cnn)
print(saliency.shape, saliency[0, :2, :5], saliency.sum(dim=(1, 2)))


def make_fooling_image(X, target_y, model):
    X_fooling = X.clone()
    X_fooling = X_fooling.requires_grad_()
    learning_rate = 1
    for it in range(100):
        scores = model(X_fooling)
        _, idx = scores.max(dim=1)
        if idx[0].item() == target_y:
            print('fooled after', it, 'iterations')
            break
        target_score = scores[0, target_y]
        target_score.backward()
        g = X_fooling.grad.data
        dX = learning_rate * g / g.norm()
        X_fooling.data += dX
        X_fooling.grad.zero_()
    return X_fooling


x0 = X[:1]
print('original class', cnn(x0).argmax().item())
X_fooling = make_fooling_image(x0, 4, cnn)
print('fooling class', cnn(X_fooling).argmax().item(), (X_fooling - x0).abs().max())


def jitter(X, ox, oy):
    if ox != 0:
        left = X[:, :, :, :-ox]
        right = X[:, :, :, -ox:]
        X = torch.cat([right, left], dim=3)
    if oy != 0:
        top = X[:, :, :-oy]
        bottom = X[:, :, -oy:]
        X = torch.cat([bottom, top], dim=2)
    return X


print(torch.equal(jitter(X, 2, 3), torch.roll(X, shifts=(3, 2), dims=(2, 3))))
img = torch.randn(1, 3, 16, 16).mul_(1.0).type(dtype).requires_grad_()
l2_reg = 1e-3
learning_rate = 25
max_jitter = 2
gen = torch.Generator().manual_seed(7)
for t in range(12):
    ox, oy = torch.randint(0, max_jitter + 1, (2,), generator=gen).tolist()
    img.data.copy_(jitter(img.data, ox, oy))
    score = cnn(img)[0, 2] - l2_reg * img.norm() ** 2
    score.backward()
    img.data += learning_rate * img.grad.data / img.grad.data.norm()
    img.grad.data.zero_()
    img.data.copy_(jitter(img.data, -ox if ox else 0, -oy if oy else 0) if False else img.data)
    if t % 4 == 0:
        print(t, score.item(), ox, oy)
print(cnn(img).softmax(1))
