#!/usr/bin/env bash
# Demo submission for Rubric Studio's demo paper (fictional): no GPU, no network, a few seconds.
# It "trains" the five methods of Section 5 with a deterministic stand-in and writes the results
# table the paper's Table 1 asks for, printing progress as a real run would.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results

methods=("warmup+clip" "no-warmup" "global-clip" "agc" "wagc")
bpc=(1.512 1.587 1.541 1.533 1.509)
echo -e "\033[1mWAGC demo reproduction\033[0m: 5 methods x 3 seeds, character-level LM (stand-in)"
for i in "${!methods[@]}"; do
  for seed in 0 1 2; do
    for step in 250 500 750 1000; do
      loss=$(awk -v b="${bpc[$i]}" -v s="$step" -v r="$seed" 'BEGIN { printf "%.3f", b + 2.0 / (s / 250) + r * 0.001 }')
      echo "[${methods[$i]}] seed ${seed} step ${step}/1000 val_bpc=${loss}"
      sleep 0.05
    done
  done
  echo -e "\033[32m✓\033[0m ${methods[$i]}: mean val_bpc ${bpc[$i]}"
done

{
  echo "method,mean_val_bpc,seeds"
  for i in "${!methods[@]}"; do echo "${methods[$i]},${bpc[$i]},3"; done
} > results/table1.csv
echo "wrote results/table1.csv"
column -s, -t results/table1.csv 2>/dev/null || cat results/table1.csv
