import { describe, expect, it } from "vitest";
import { runsWithoutReproduceScript } from "./missing-reproduce-script";

describe("submission folders without reproduce.sh", () => {
  it("names each run of the <paper>/<run>/submission/ layout whose root lacks it", () => {
    const paths = [
      "pinn/1/submission/reproduce.sh",
      "pinn/1/submission/train.py",
      "pinn/2/submission/train.py",
      "pinn/2/submission/sub/reproduce.sh", // not at the root
      "pinn/10/submission/README.md",
      "pinn/1/agent.log",
      "manifest.csv",
    ];
    expect(runsWithoutReproduceScript(paths)).toEqual(["pinn/2", "pinn/10"]);
    expect(runsWithoutReproduceScript(["pinn/1/submission/reproduce.sh"])).toEqual([]);
  });
});
