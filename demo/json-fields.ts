/**
 * Reads of JSON the bot sent and the emulator stored as it came (components, embeds): typed field by field, so a
 * missing or odd field reads as undefined instead of throwing, without casting the whole object.
 */

/** Typed reads of one JSON object's fields: each answers undefined for a missing field or one of another type. */
export class Fields {
  private readonly value: Readonly<Record<string, unknown>>;

  constructor(value: unknown) {
    this.value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }

  static list(value: unknown): readonly unknown[] {
    return Array.isArray(value) ? value : [];
  }

  get(key: string): unknown {
    return this.value[key];
  }

  child(key: string): Fields {
    return new Fields(this.value[key]);
  }

  string(key: string): string | undefined {
    const v = this.value[key];
    return typeof v === 'string' ? v : undefined;
  }

  number(key: string): number | undefined {
    const v = this.value[key];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  boolean(key: string): boolean | undefined {
    const v = this.value[key];
    return typeof v === 'boolean' ? v : undefined;
  }
}
