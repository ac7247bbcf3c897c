# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "Text
# classification with the torchtext library" (beginner/text_sentiment_ngrams_tutorial), BSD-3:
# https://pytorch.org/tutorials/beginner/text_sentiment_ngrams_tutorial.html
# Like the original: a TextClassificationModel of nn.EmbeddingBag(vocab_size, embed_dim,
# sparse=False) and nn.Linear, init_weights with uniform_(-0.5, 0.5) and a zeroed bias; a
# collate_batch that concatenates token ids and builds offsets with cumsum; CrossEntropyLoss,
# SGD(lr=5) with StepLR(1.0, gamma=0.1), clip_grad_norm_(0.1); train/evaluate loops printing
# accuracy, and a predict() on new text.
# Differences: a tiny synthetic corpus of four topics (word lists, sentences drawn with a
# seeded generator) and a whitespace tokenizer with a dict vocabulary instead of AG_NEWS and
# torchtext; 3 epochs.
import random
import time

import torch
from torch import nn
from torch.utils.data import DataLoader

TOPICS = {
    0: "goal match team coach league score player season cup striker".split(),
    1: "market stock price bank profit shares trade investor growth rate".split(),
    2: "planet space rocket orbit telescope star galaxy launch moon mission".split(),
    3: "election vote party minister law senate policy campaign leader court".split(),
}
COMMON = "the a of and in on for with to new".split()


def make_corpus(n, rng):
    data = []
    for _ in range(n):
        label = rng.randrange(4)
        words = [rng.choice(TOPICS[label]) if rng.random() < 0.6 else rng.choice(COMMON)
                 for _ in range(rng.randrange(4, 12))]
        data.append((label, " ".join(words)))
    return data


def build_vocab(data):
    vocab = {"<unk>": 0}
    for _, text in data:
        for token in text.split():
            vocab.setdefault(token, len(vocab))
    return vocab


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


def main():
    torch.manual_seed(0)
    rng = random.Random(1)
    train_data, test_data = make_corpus(240, rng), make_corpus(60, rng)
    vocab = build_vocab(train_data)
    text_pipeline = lambda x: [vocab.get(token, 0) for token in x.split()]  # noqa: E731

    def collate_batch(batch):
        label_list, text_list, offsets = [], [], [0]
        for label, text in batch:
            label_list.append(label)
            processed = torch.tensor(text_pipeline(text), dtype=torch.int64)
            text_list.append(processed)
            offsets.append(processed.size(0))
        label_list = torch.tensor(label_list, dtype=torch.int64)
        offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
        return label_list, torch.cat(text_list), offsets

    model = TextClassificationModel(len(vocab), 16, 4)
    print(model)
    print("vocab size:", len(vocab))
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=5)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
    generator = torch.Generator().manual_seed(3)
    train_loader = DataLoader(train_data, batch_size=16, shuffle=True, generator=generator,
                              collate_fn=collate_batch)
    test_loader = DataLoader(test_data, batch_size=16, collate_fn=collate_batch)

    def train(epoch):
        model.train()
        total_acc, total_count = 0, 0
        for idx, (label, text, offsets) in enumerate(train_loader):
            optimizer.zero_grad()
            predicted_label = model(text, offsets)
            loss = criterion(predicted_label, label)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            optimizer.step()
            total_acc += (predicted_label.argmax(1) == label).sum().item()
            total_count += label.size(0)
            if idx % 5 == 4:
                print(f"| epoch {epoch:3d} | {idx:5d}/{len(train_loader):5d} batches "
                      f"| accuracy {total_acc / total_count:8.3f} | loss {loss.item():8.4f}")
                total_acc, total_count = 0, 0

    def evaluate(loader):
        model.eval()
        total_acc, total_count = 0, 0
        with torch.no_grad():
            for label, text, offsets in loader:
                predicted_label = model(text, offsets)
                total_acc += (predicted_label.argmax(1) == label).sum().item()
                total_count += label.size(0)
        return total_acc / total_count

    start = time.time()
    for epoch in range(1, 4):
        train(epoch)
        accu_val = evaluate(test_loader)
        scheduler.step()
        assert time.time() - start >= 0
        print("-" * 59)
        print(f"| end of epoch {epoch:3d} | valid accuracy {accu_val:8.3f} ")
        print("-" * 59)

    def predict(text):
        with torch.no_grad():
            text = torch.tensor(text_pipeline(text))
            output = model(text, torch.tensor([0]))
            return output.argmax(1).item()

    names = {0: "Sports", 1: "Business", 2: "Sci/Tec", 3: "World"}
    for sentence in ["the team won the cup", "stock price growth for the bank",
                     "rocket launch to the moon"]:
        print(f"{sentence!r} is {names[predict(sentence)]} news")
    bag = model.embedding(torch.tensor([[1, 2, 3], [4, 5, 6]]))
    print("fixed-length bags:", tuple(bag.shape), bag.grad_fn.name())
    print(model.embedding.weight[:2].detach().round(decimals=4))


if __name__ == "__main__":
    main()
