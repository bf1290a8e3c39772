# The demo: a scatter plot drawn with matplotlib. Nothing here saves the figure; the
# sandbox captures it at plt.show().
import matplotlib.pyplot as plt
import numpy as np

rng = np.random.default_rng(42)
x = rng.normal(size=200)
y = 0.6 * x + rng.normal(scale=0.5, size=200)

fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(x, y, c=y, cmap="viridis", alpha=0.8)
ax.set_title("200 points, correlation %.2f" % np.corrcoef(x, y)[0, 1])
ax.set_xlabel("x")
ax.set_ylabel("y")
plt.show()

print("points:", len(x))
print("correlation: %.3f" % np.corrcoef(x, y)[0, 1])
