/**
 * Python's `str.format` for templates with named fields only (PaperBench's CRITERION_PROMPT and
 * similar). `{{` and `}}` are literal braces; `{name}` is replaced by `values[name]` verbatim. What
 * Python would reject (a single `{` or `}`, an unknown name) throws, with Python's wording; what
 * Python would accept but this port does not need (positional `{}`/`{0}`, `{a.b}`, `{a[0]}`, `!r`,
 * `:spec`) throws too rather than guessing.
 */
export function formatPython(template: string, values: Record<string, string>): string {
  let out = "";
  let i = 0;
  const n = template.length;
  while (i < n) {
    const c = template[i];
    if (c === "{") {
      if (template[i + 1] === "{") {
        out += "{";
        i += 2;
        continue;
      }
      if (i + 1 >= n) throw new Error("ValueError: Single '{' encountered in format string");
      // Python finds the field's end by counting nested braces (they belong to a format spec).
      let depth = 1;
      let j = i + 1;
      for (; j < n; j++) {
        if (template[j] === "{") depth++;
        else if (template[j] === "}" && --depth === 0) break;
      }
      if (j >= n) throw new Error("ValueError: expected '}' before end of string");
      const field = template.slice(i + 1, j);
      out += fieldValue(field, values);
      i = j + 1;
      continue;
    }
    if (c === "}") {
      if (template[i + 1] === "}") {
        out += "}";
        i += 2;
        continue;
      }
      throw new Error("ValueError: Single '}' encountered in format string");
    }
    out += c;
    i++;
  }
  return out;
}

function fieldValue(field: string, values: Record<string, string>): string {
  if (field === "" || /^\d+$/.test(field)) {
    throw new Error(`IndexError: positional field {${field}} in a format string that has only named values`);
  }
  if (/[!:.[]/.test(field)) {
    throw new Error(`Unsupported format field {${field}}: only plain named fields are ported`);
  }
  if (!Object.hasOwn(values, field)) throw new Error(`KeyError: '${field}' (format string field with no value)`);
  return values[field];
}
