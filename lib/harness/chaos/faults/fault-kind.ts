/**
 * A fault kind is one of Toxiproxy's toxic types, described as data: its attributes (names, units, defaults, bounds)
 * in Toxiproxy's own vocabulary, so a chaos file reads like Toxiproxy's API and goes to it unchanged.
 */

export interface AttributeSpec {
  /** What the attribute means, with its unit (docs/chaos.md repeats it). */
  description: string;
  /** Absent: the attribute must be given. */
  default?: number;
  min: number;
  max?: number;
  integer: boolean;
}

export interface FaultKind {
  /** Toxiproxy's toxic type. */
  type: string;
  summary: string;
  attributes: Readonly<Record<string, AttributeSpec>>;
}

/** Checks a fault's attributes against its kind; returns them with defaults filled in, or the first problem. */
export function validateAttributes(
  kind: FaultKind,
  given: Record<string, unknown>,
): { attributes: Record<string, number> } | { problem: string } {
  // Own keys only: "valueOf" is in every object, and is no attribute.
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(kind.attributes, name));
  if (unknown.length > 0) {
    return {
      problem: `${kind.type} has no attribute ${unknown.join(", ")} (it has ${Object.keys(kind.attributes).join(", ")})`,
    };
  }
  const attributes: Record<string, number> = {};
  for (const [name, spec] of Object.entries(kind.attributes)) {
    const value = given[name] ?? spec.default;
    if (value === undefined) return { problem: `${kind.type} needs the attribute ${name} (${spec.description})` };
    if (typeof value !== "number" || !Number.isFinite(value)) {
      return { problem: `${kind.type} attribute ${name} must be a number (${spec.description})` };
    }
    if (spec.integer && !Number.isInteger(value)) {
      return { problem: `${kind.type} attribute ${name} must be a whole number (${spec.description})` };
    }
    if (value < spec.min || (spec.max !== undefined && value > spec.max)) {
      const range = spec.max === undefined ? `>= ${spec.min}` : `from ${spec.min} to ${spec.max}`;
      return { problem: `${kind.type} attribute ${name} must be ${range}, not ${value}` };
    }
    attributes[name] = value;
  }
  return { attributes };
}
