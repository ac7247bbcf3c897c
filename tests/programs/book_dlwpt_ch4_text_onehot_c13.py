# Corpus program, written for gradsh (no code copied). Modelled on "Deep Learning with PyTorch"
# chapter 4 notebook "Representing text" (Apache-2.0):
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch4/5_text_jane_austen.ipynb
# Like the original: torch.set_printoptions(edgeitems=2, threshold=50); one line of the novel
# one-hot encoded per character into a (len(line), 128) tensor with ord() (non-ASCII to 0),
# clean_words (lower, strip of punctuation), a sorted vocabulary and word2index_dict, the
# per-word one-hot (len(words), len(vocab)) with the '{:2} {:4} {}' index table, unsqueeze(1)
# for a batch dimension, the (character, ord) list of the text's alphabet.
# Differences: a short public-domain passage of Pride and Prejudice's opening chapter is
# embedded instead of reading the Gutenberg file; the one-hot tensors are printed (summarised
# by the print options), with their sums and the argmax back to characters / words.
import torch

torch.set_printoptions(edgeitems=2, threshold=50)
text = """It is a truth universally acknowledged, that a single man in possession
of a good fortune, must be in want of a wife.

However little known the feelings or views of such a man may be on his
first entering a neighbourhood, this truth is so well fixed in the minds
of the surrounding families, that he is considered the rightful property
of some one or other of their daughters.

“My dear Mr. Bennet,” said his lady to him one day, “have you heard that
Netherfield Park is let at last?”

Mr. Bennet replied that he had not.

“But it is,” returned she; “for Mrs. Long has just been here, and she
told me all about it.”

“Impossible, Mr. Bennet, impossible, when I am not acquainted with him
myself; how can you be so teasing?”"""
lines = text.split('\n')
line = lines[-2]
print(line)
letter_t = torch.zeros(len(line), 128)
print(letter_t.shape)
for i, letter in enumerate(line.lower().strip()):
    letter_index = ord(letter) if ord(letter) < 128 else 0
    letter_t[i][letter_index] = 1
print(letter_t)
print(letter_t.sum(), letter_t.sum(dim=0).nonzero().flatten())
print(''.join(chr(c) for c in letter_t.argmax(dim=1).tolist()))


def clean_words(input_str):
    punctuation = '.,;:"!?”“_-'
    word_list = input_str.lower().replace('\n', ' ').split()
    word_list = [word.strip(punctuation) for word in word_list]
    return word_list


words_in_line = clean_words(line)
print(line, words_in_line)
word_list = sorted(set(clean_words(text)))
word2index_dict = {word: i for (i, word) in enumerate(word_list)}
print(len(word2index_dict), word2index_dict['impossible'])
word_t = torch.zeros(len(words_in_line), len(word2index_dict))
for i, word in enumerate(words_in_line):
    word_index = word2index_dict[word]
    word_t[i][word_index] = 1
    print('{:2} {:4} {}'.format(i, word_index, word))
print(word_t.shape)
print(word_t)
word_t = word_t.unsqueeze(1)
print(word_t.shape)
print([word_list[i] for i in word_t.squeeze(1).argmax(dim=-1)])
print([(c, ord(c)) for c in sorted(set(text))][:12])
counts = torch.bincount(torch.tensor([ord(c) if ord(c) < 128 else 0 for c in text.lower()]),
                        minlength=128)
print(counts[97:123])
print(counts.topk(5))
