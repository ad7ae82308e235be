import { formatMoney } from "../../lib/money.ts";

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
      {formatMoney(line.unitPriceCents)}
      {line.priceSource !== "list" ? (
        <span className={noteClassName}>
          {line.priceSource === "volume" ? "Volume price" : "Your trade price"} (list{" "}
          <s>{formatMoney(line.listPriceCents)}</s>)
        </span>
      ) : null}
    </>
  );
}
