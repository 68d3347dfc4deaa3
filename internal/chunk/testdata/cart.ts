import { EventEmitter } from "events";
import type { Money, Product } from "./types";

/** Maximum number of distinct lines in a cart. */
export const MAX_LINES = 50;

/** A line of a cart: a product and how many of it. */
export interface CartLine {
  product: Product;
  quantity: number;
}

export type Currency = "EUR" | "USD" | "GBP";

export enum DiscountKind {
  Percent = "percent",
  Fixed = "fixed",
}

/**
 * A shopping cart.
 *
 * Emits "change" whenever its lines change.
 */
export class Cart extends EventEmitter {
  private readonly lines = new Map<string, CartLine>();
  private discount: { kind: DiscountKind; value: number } | null = null;

  constructor(private readonly currency: Currency = "EUR") {
    super();
  }

  /** Adds quantity units of product, merging with an existing line. */
  add(product: Product, quantity = 1): void {
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    const existing = this.lines.get(product.id);
    if (existing) {
      existing.quantity += quantity;
    } else {
      if (this.lines.size >= MAX_LINES) {
        throw new Error("cart is full");
      }
      this.lines.set(product.id, { product, quantity });
    }
    this.emit("change");
  }

  /** Removes a product entirely. Returns whether it was there. */
  remove(productId: string): boolean {
    const removed = this.lines.delete(productId);
    if (removed) {
      this.emit("change");
    }
    return removed;
  }

  applyDiscount(kind: DiscountKind, value: number): void {
    if (kind === DiscountKind.Percent && (value < 0 || value > 100)) {
      throw new RangeError("percent discount must be between 0 and 100");
    }
    this.discount = { kind, value };
    this.emit("change");
  }

  get size(): number {
    return this.lines.size;
  }

  /** The total price in minor units, discount applied. */
  total(): Money {
    let cents = 0;
    for (const line of this.lines.values()) {
      cents += line.product.price.cents * line.quantity;
    }
    if (this.discount) {
      cents =
        this.discount.kind === DiscountKind.Percent
          ? Math.round((cents * (100 - this.discount.value)) / 100)
          : Math.max(0, cents - this.discount.value);
    }
    return { cents, currency: this.currency };
  }

  /** Empties the cart and forgets any discount. */
  clear(): void {
    this.lines.clear();
    this.discount = null;
    this.emit("change");
  }

  lineFor(productId: string): CartLine | undefined {
    return this.lines.get(productId);
  }

  toJSON(): object {
    return {
      currency: this.currency,
      lines: [...this.lines.values()].map((l) => ({ id: l.product.id, quantity: l.quantity })),
      discount: this.discount,
    };
  }
}

// formatMoney renders minor units with two decimals.
export function formatMoney(m: Money): string {
  const sign = m.cents < 0 ? "-" : "";
  const abs = Math.abs(m.cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${m.currency}`;
}

/** Parses "12.34 EUR". */
export const parseMoney = (text: string): Money => {
  const match = /^(-?)(\d+)\.(\d{2}) (EUR|USD|GBP)$/.exec(text.trim());
  if (!match) {
    throw new SyntaxError(`not a money amount: ${text}`);
  }
  const cents = Number(match[2]) * 100 + Number(match[3]);
  return { cents: match[1] ? -cents : cents, currency: match[4] as Currency };
};

export namespace CartEvents {
  export const CHANGE = "change";
}
