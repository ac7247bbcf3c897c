# Corpus program, written for gradsh (no code copied). Modelled on Eli Stevens, Luca Antiga and
# Thomas Viehmann's "Deep Learning with PyTorch" chapter 4 notebooks (Apache-2.0):
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch4/3_tabular_wine.ipynb
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch4/4_time_series_bikes.ipynb
# Like the originals: torch.set_printoptions(edgeitems=2, precision=2, linewidth=75) and then
# (edgeitems=2, threshold=50, linewidth=75) so that the big tensors print summarised; the wine
# table split into data and target, the target as long, a one-hot made with scatter_, the
# per-column mean / var and the normalised data (scientific notation), boolean masks
# (target <= 3, combined with &), the per-class means printed with str.format over zip of
# the column names and tensors, the torch.lt threshold predictor with its matches / precision
# / recall; the bikes table viewed as (days, 24, columns), its strides, transpose(1, 2), the
# weather one-hot from scatter_(dim=1, index=..., value=1.0), torch.cat of the columns, and the
# temperature column rescaled in place (min-max, then mean / std).
# Differences: the CSV files are replaced by synthetic tables of the same shapes and value
# ranges (4898 x 12 wine rows, 17520 x 17 bike rows built with NumPy, rounded like the files);
# seeded.
import numpy as np
import torch

torch.set_printoptions(edgeitems=2, precision=2, linewidth=75)
rng = np.random.RandomState(0)
n = 4898
scales = np.array([6.85, 0.28, 0.33, 6.39, 0.046, 35.3, 138.0, 0.994, 3.19, 0.49, 10.5])
spread = np.array([0.84, 0.1, 0.12, 5.07, 0.022, 17.0, 42.5, 0.003, 0.15, 0.11, 1.23])
features = np.round(scales + spread * rng.standard_normal((n, 11)), 2)
features[:, 7] = np.round(scales[7] + spread[7] * rng.standard_normal(n), 4)
quality = np.clip(np.round(5.9 + 0.9 * rng.standard_normal(n) + 0.3 * (features[:, 10] - 10.5)),
                  3, 9)
wineq_numpy = np.concatenate([features, quality[:, None]], axis=1).astype(np.float32)
col_list = ['fixed acidity', 'volatile acidity', 'citric acid', 'residual sugar', 'chlorides',
            'free sulfur dioxide', 'total sulfur dioxide', 'density', 'pH', 'sulphates',
            'alcohol', 'quality']

wineq = torch.from_numpy(wineq_numpy)
print(wineq.shape, wineq.dtype)
data = wineq[:, :-1]
print(data, data.shape)
target = wineq[:, -1]
print(target, target.shape)
target = wineq[:, -1].long()
print(target)
target_onehot = torch.zeros(target.shape[0], 10)
print(target_onehot.scatter_(1, target.unsqueeze(1), 1.0))
print(target.unsqueeze(1))
data_mean = torch.mean(data, dim=0)
print(data_mean)
data_var = torch.var(data, dim=0)
print(data_var)
data_normalized = (data - data_mean) / torch.sqrt(data_var)
print(data_normalized)
bad_indexes = target <= 3
print(bad_indexes.shape, bad_indexes.dtype, bad_indexes.sum())
bad_data = data[bad_indexes]
print(bad_data.shape)
bad_data = data[target <= 3]
mid_data = data[(target > 3) & (target < 7)]
good_data = data[target >= 7]
bad_mean = torch.mean(bad_data, dim=0)
mid_mean = torch.mean(mid_data, dim=0)
good_mean = torch.mean(good_data, dim=0)
for i, args in enumerate(zip(col_list, bad_mean, mid_mean, good_mean)):
    print('{:2} {:20} {:6.2f} {:6.2f} {:6.2f}'.format(i, *args))
total_sulfur_threshold = 141.83
total_sulfur_data = data[:, 6]
predicted_indexes = torch.lt(total_sulfur_data, total_sulfur_threshold)
print(predicted_indexes.shape, predicted_indexes.dtype, predicted_indexes.sum())
actual_indexes = target > 5
print(actual_indexes.shape, actual_indexes.dtype, actual_indexes.sum())
n_matches = torch.sum(actual_indexes & predicted_indexes).item()
n_predicted = torch.sum(predicted_indexes).item()
n_actual = torch.sum(actual_indexes).item()
print(n_matches, n_matches / n_predicted, n_matches / n_actual)

# bikes
torch.set_printoptions(edgeitems=2, threshold=50, linewidth=75)
hours = 17520
bikes_numpy = np.zeros((hours, 17), dtype=np.float32)
bikes_numpy[:, 0] = np.arange(1, hours + 1)
bikes_numpy[:, 1] = (np.arange(hours) // 24) % 31 + 1
bikes_numpy[:, 2] = (np.arange(hours) // (24 * 91)) % 4 + 1
bikes_numpy[:, 3] = np.arange(hours) // (24 * 365)
bikes_numpy[:, 4] = (np.arange(hours) // (24 * 30)) % 12 + 1
bikes_numpy[:, 5] = np.arange(hours) % 24
bikes_numpy[:, 6] = rng.rand(hours) < 0.03
bikes_numpy[:, 7] = (np.arange(hours) // 24) % 7
bikes_numpy[:, 8] = bikes_numpy[:, 7] < 5
bikes_numpy[:, 9] = rng.choice([1, 2, 3, 4], size=hours, p=[0.65, 0.26, 0.08, 0.01])
bikes_numpy[:, 10] = np.round(0.5 + 0.19 * np.sin(np.arange(hours) / 1400.0)
                              + 0.05 * rng.randn(hours), 2)
bikes_numpy[:, 11] = np.round(bikes_numpy[:, 10] * 0.95 + 0.01, 4)
bikes_numpy[:, 12] = np.round(rng.uniform(0.2, 1.0, hours), 2)
bikes_numpy[:, 13] = np.round(rng.uniform(0.0, 0.5, hours), 4)
bikes_numpy[:, 14] = rng.poisson(35, hours)
bikes_numpy[:, 15] = rng.poisson(150, hours)
bikes_numpy[:, 16] = bikes_numpy[:, 14] + bikes_numpy[:, 15]
bikes = torch.from_numpy(bikes_numpy)
print(bikes)
print(bikes.shape, bikes.stride())
daily_bikes = bikes.view(-1, 24, bikes.shape[1])
print(daily_bikes.shape, daily_bikes.stride())
daily_bikes = daily_bikes.transpose(1, 2)
print(daily_bikes.shape, daily_bikes.stride())
first_day = bikes[:24].long()
weather_onehot = torch.zeros(first_day.shape[0], 4)
print(first_day[:, 9])
print(weather_onehot.scatter_(dim=1, index=first_day[:, 9].unsqueeze(1).long() - 1, value=1.0))
print(torch.cat((bikes[:24], weather_onehot), 1)[:1])
daily_weather_onehot = torch.zeros(daily_bikes.shape[0], 4, daily_bikes.shape[2])
print(daily_weather_onehot.shape)
daily_weather_onehot.scatter_(1, daily_bikes[:, 9, :].long().unsqueeze(1) - 1, 1.0)
print(daily_weather_onehot.shape, daily_weather_onehot.sum(dim=(0, 2)))
daily_bikes = torch.cat((daily_bikes, daily_weather_onehot), dim=1)
print(daily_bikes.shape, daily_bikes.stride(), daily_bikes.is_contiguous())
daily_bikes[:, 9, :] = (daily_bikes[:, 9, :] - 1.0) / 3.0
temp = daily_bikes[:, 10, :]
temp_min = torch.min(temp)
temp_max = torch.max(temp)
daily_bikes[:, 10, :] = ((daily_bikes[:, 10, :] - temp_min) / (temp_max - temp_min))
print(temp_min, temp_max, daily_bikes[:2, 10, :5])
temp = daily_bikes[:, 10, :]
daily_bikes[:, 10, :] = ((daily_bikes[:, 10, :] - torch.mean(temp)) / torch.std(temp))
print(daily_bikes[:, 10, :])
print(daily_bikes[0, 9], daily_bikes[:, 17:].sum())
