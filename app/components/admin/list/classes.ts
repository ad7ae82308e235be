/** The look of every back-office table. */
export const TABLE_CLASS = "w-full border-collapse text-left text-sm";
export const TH_CLASS = "sticky top-0 border-b border-slate-300 bg-slate-50 px-3 py-2 font-semibold text-ink";
export const TD_CLASS = "border-b border-slate-200 px-3 py-2 align-top";
export const SORT_LINK_CLASS = "inline-flex items-center gap-1 underline decoration-dotted underline-offset-4";
