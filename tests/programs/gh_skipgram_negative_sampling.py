# Corpus program, written for gradsh (no code copied). Modelled on the skip-gram notebook of
# https://github.com/xiang1103/DL_ML_Implementations ("Implementation of Word2Vec through Skip
# Gram and CBOW": a skip_gram_neg_sampling Module with an input and a context nn.Embedding,
# both initialised uniform_(-1, 1), forward taking torch.mul of the two embeddings, summing over
# the hidden dimension and applying F.logsigmoid, negative words drawn with torch.multinomial
# from a uniform noise distribution) and on the toy corpus of "Implementing Word2Vec with
# Negative Sampling from Scratch" (https://hashnode-hub.vercel.app/posts/67fd71dd24d5eac60325e110:
# "apple banana fruit" / "dog cat animal" sentences, split into tokens, window pairs).
# Differences: our own code; 60 epochs with SGD; seeded; the nearest neighbours by cosine
# similarity printed instead of a plot.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
corpus = ["apple banana fruit", "banana apple fruit", "banana fruit apple",
          "dog cat animal", "cat animal dog", "cat dog animal"]
corpus = [sent.split(" ") for sent in corpus]
vocab = sorted({w for sent in corpus for w in sent})
word2idx = {w: i for i, w in enumerate(vocab)}
print(vocab)
pairs = []
for sent in corpus:
    for i, center in enumerate(sent):
        for j in range(max(0, i - 2), min(len(sent), i + 3)):
            if j != i:
                pairs.append((word2idx[center], word2idx[sent[j]]))
print(len(pairs), pairs[:4])


class SkipGramNeg(torch.nn.Module):
    def __init__(self, embedding_size, vocab_size, negative_samples=3):
        super().__init__()
        self.vocab_size = vocab_size
        self.neg_samples = negative_samples
        self.embedding_input = torch.nn.Embedding(vocab_size, embedding_size)
        self.context_embedding = torch.nn.Embedding(vocab_size, embedding_size)
        self.embedding_input.weight.data.uniform_(-1, 1)
        self.context_embedding.weight.data.uniform_(-1, 1)

    def forward(self, input_word, context_word):
        embed_input = self.embedding_input(input_word)
        embed_context = self.context_embedding(context_word)
        embed_product = torch.sum(torch.mul(embed_input, embed_context), dim=1)
        out_loss = F.logsigmoid(embed_product)
        noise_dist = torch.ones(self.vocab_size)
        num_samples = context_word.shape[0] * self.neg_samples
        negative = torch.multinomial(noise_dist, num_samples=num_samples, replacement=True)
        negative = negative.view(context_word.shape[0], self.neg_samples)
        embed_neg = self.context_embedding(negative)
        neg_product = torch.bmm(embed_neg.neg(), embed_input.unsqueeze(2)).squeeze(2)
        noise_loss = F.logsigmoid(neg_product).sum(1)
        return -(out_loss + noise_loss).mean()


model = SkipGramNeg(embedding_size=5, vocab_size=len(vocab))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
centers = torch.tensor([p[0] for p in pairs])
contexts = torch.tensor([p[1] for p in pairs])
for epoch in range(60):
    optimizer.zero_grad()
    loss = model(centers, contexts)
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch} loss {loss.item():.3f}")

emb = F.normalize(model.embedding_input.weight.detach(), dim=1)
sim = emb @ emb.t()
for w in ["apple", "dog"]:
    scores = sim[word2idx[w]].clone()
    scores[word2idx[w]] = -2
    print(w, "->", vocab[scores.argmax().item()])
print(model.embedding_input.weight.grad.shape, model.embedding_input.weight.grad.dtype)
