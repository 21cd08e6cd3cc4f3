/**
 * The Drain log-template miner as PaperBench runs it: `drain3.TemplateMiner()` with its default
 * configuration (no drain3.ini, no masking, no persistence): Drain with depth 4, sim_th 0.4,
 * max_children 100, unlimited clusters, no extra delimiters, `<*>` as the parameter,
 * parametrize_numeric_tokens on.
 *
 * A port of drain3 (MIT licence, Copyright (c) IBM Corp. / logpai; see the vendored copy at
 * PaperBench's vendor/drain3/drain.py, template_miner.py and template_miner_config.py, itself
 * based on https://github.com/logpai/logparser's Drain.py by the LogPAI team). Only what
 * `add_log_message` does is ported; matching, persistence and parameter extraction are not.
 * Tokens are Python's `str.strip().split()` (Unicode whitespace), numeric tokens are those with a
 * character for which `str.isdigit()` is true.
 */
import { hasPythonDigit, pythonSplitWhitespace } from "./python-chars";

export const DRAIN_PARAM = "<*>";

class Node {
  readonly children = new Map<string, Node>();
  clusterIds: number[] = [];
}

export interface LogCluster {
  readonly clusterId: number;
  templateTokens: readonly string[];
  size: number;
}

export interface DrainOptions {
  depth?: number;
  simTh?: number;
  maxChildren?: number;
  parametrizeNumericTokens?: boolean;
}

export class Drain {
  private readonly maxNodeDepth: number;
  private readonly simTh: number;
  private readonly maxChildren: number;
  private readonly parametrizeNumericTokens: boolean;
  private readonly root = new Node();
  private readonly clusters = new Map<number, LogCluster>();
  private clustersCounter = 0;

  constructor(options: DrainOptions = {}) {
    const depth = options.depth ?? 4;
    if (depth < 3) throw new Error("depth argument must be at least 3");
    this.maxNodeDepth = depth - 2;
    this.simTh = options.simTh ?? 0.4;
    this.maxChildren = options.maxChildren ?? 100;
    this.parametrizeNumericTokens = options.parametrizeNumericTokens ?? true;
  }

  get clusterCount(): number {
    return this.clusters.size;
  }

  /** `TemplateMiner.add_log_message` (identity masking) → `Drain.add_log_message`. */
  addLogMessage(content: string): {
    cluster: LogCluster;
    changeType: "cluster_created" | "cluster_template_changed" | "none";
  } {
    const tokens = pythonSplitWhitespace(content); // strip() then split(): split() already drops both ends
    const match = this.treeSearch(tokens);
    if (match === null) {
      this.clustersCounter += 1;
      const cluster: LogCluster = { clusterId: this.clustersCounter, templateTokens: tokens, size: 1 };
      this.clusters.set(cluster.clusterId, cluster);
      this.addSeqToPrefixTree(cluster);
      return { cluster, changeType: "cluster_created" };
    }
    const template = tokens.map((t, i) => (t === match.templateTokens[i] ? match.templateTokens[i] : DRAIN_PARAM));
    const same = template.every((t, i) => t === match.templateTokens[i]);
    if (!same) match.templateTokens = template;
    match.size += 1;
    return { cluster: match, changeType: same ? "none" : "cluster_template_changed" };
  }

  private treeSearch(tokens: readonly string[]): LogCluster | null {
    const tokenCount = tokens.length;
    let node = this.root.children.get(String(tokenCount));
    if (node === undefined) return null;
    // An empty message: the one cluster of that group.
    if (tokenCount === 0) return this.clusters.get(node.clusterIds[0]) ?? null;
    let depth = 1;
    for (const token of tokens) {
      if (depth >= this.maxNodeDepth) break;
      if (depth === tokenCount) break;
      const next: Node | undefined = node.children.get(token) ?? node.children.get(DRAIN_PARAM);
      if (next === undefined) return null;
      node = next;
      depth += 1;
    }
    return this.fastMatch(node.clusterIds, tokens);
  }

  private fastMatch(clusterIds: readonly number[], tokens: readonly string[]): LogCluster | null {
    let maxSim = -1;
    let maxParamCount = -1;
    let maxCluster: LogCluster | null = null;
    for (const id of clusterIds) {
      const cluster = this.clusters.get(id);
      if (cluster === undefined) continue;
      const [sim, paramCount] = seqDistance(cluster.templateTokens, tokens);
      if (sim > maxSim || (sim === maxSim && paramCount > maxParamCount)) {
        maxSim = sim;
        maxParamCount = paramCount;
        maxCluster = cluster;
      }
    }
    return maxSim >= this.simTh ? maxCluster : null;
  }

  private addSeqToPrefixTree(cluster: LogCluster): void {
    const tokenCount = cluster.templateTokens.length;
    const key = String(tokenCount);
    let node = this.root.children.get(key);
    if (node === undefined) {
      node = new Node();
      this.root.children.set(key, node);
    }
    if (tokenCount === 0) {
      node.clusterIds = [cluster.clusterId];
      return;
    }
    let depth = 1;
    for (const token of cluster.templateTokens) {
      if (depth >= this.maxNodeDepth || depth >= tokenCount) {
        // drain3 drops ids of evicted clusters here; with unlimited clusters none ever is.
        node.clusterIds = [...node.clusterIds.filter((id) => this.clusters.has(id)), cluster.clusterId];
        break;
      }
      const children: Map<string, Node> = node.children;
      const existing = children.get(token);
      if (existing !== undefined) {
        node = existing;
      } else if (this.parametrizeNumericTokens && hasPythonDigit(token)) {
        node = childOrNew(children, DRAIN_PARAM);
      } else if (children.has(DRAIN_PARAM)) {
        node = children.size < this.maxChildren ? childOrNew(children, token) : children.get(DRAIN_PARAM)!;
      } else if (children.size + 1 < this.maxChildren) {
        node = childOrNew(children, token);
      } else if (children.size + 1 === this.maxChildren) {
        node = childOrNew(children, DRAIN_PARAM);
      } else {
        // drain3 would look up a wildcard child that does not exist here and raise KeyError; with
        // these rules a full node always has one, so this cannot happen.
        throw new Error("Drain: a full tree node without a wildcard child");
      }
      depth += 1;
    }
  }
}

function childOrNew(children: Map<string, Node>, key: string): Node {
  let child = children.get(key);
  if (child === undefined) {
    child = new Node();
    children.set(key, child);
  }
  return child;
}

/** `Drain.get_seq_distance(template, tokens, include_params=False)`: (similarity, wildcard count). */
function seqDistance(template: readonly string[], tokens: readonly string[]): [number, number] {
  if (template.length === 0) return [1.0, 0];
  let similar = 0;
  let params = 0;
  for (let i = 0; i < template.length; i++) {
    if (template[i] === DRAIN_PARAM) {
      params++;
      continue;
    }
    if (template[i] === tokens[i]) similar++;
  }
  return [similar / template.length, params];
}
