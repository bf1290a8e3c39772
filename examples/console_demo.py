import numpy as np
import matplotlib.pyplot as plt
x = np.linspace(0, 4 * np.pi, 400)
plt.plot(x, np.sin(x), label="sin")
plt.plot(x, np.cos(x) * np.exp(-x / 8), label="damped cos")
plt.legend()
plt.title("Drawn in the console")
plt.show()
print("peak:", round(float(np.max(np.sin(x))), 3))
print("points:", len(x))
