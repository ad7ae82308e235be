/** The `<option>`s of a select, one for each value and its label. */
export function Options({ options }: { options: readonly { value: string | number; label: string }[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}
