import { Money } from "./Money.tsx";

/** A line's title with its colour under it, when it has one. */
export function TitleWithColor({ title, color }: { title: string; color: string }) {
  return (
    <>
      {title}
      {color ? <span className="block text-xs text-slate-600">Color: {color}</span> : null}
    </>
  );
}

/** The unit price a buyer pays, naming the rule that lowered it below the list price. */
export function UnitPrice({
  line,
  noteClassName,
}: {
  line: { unitPriceCents: number; listPriceCents: number; priceSource: string };
  noteClassName: string;
}) {
  return (
    <>
      <Money minor={line.unitPriceCents} />
      {line.priceSource !== "list" ? (
        <span className={noteClassName}>
          {line.priceSource === "volume" ? "Volume price" : "Your trade price"} (list{" "}
          <s>
            <Money minor={line.listPriceCents} />
          </s>
          )
        </span>
      ) : null}
    </>
  );
}

/** The hidden fields that name a line (product and colour) and what a form does to it. */
export function LineFormFields({ line, intent }: { line: { productId: number; color: string }; intent: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={line.productId} />
      <input type="hidden" name="color" value={line.color} />
    </>
  );
}

/** The fields and the "Remove" button of a form that takes a line away, named after its product. */
export function RemoveLineFields({
  line,
  intent,
  className,
}: {
  line: { productId: number; color: string; title: string };
  intent: string;
  className: string;
}) {
  return (
    <>
      <LineFormFields line={line} intent={intent} />
      <button type="submit" className={className} aria-label={`Remove ${line.title}`}>
        Remove
      </button>
    </>
  );
}
