import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Form, useNavigate } from "react-router";
import type { SuggestionOption, Suggestions, SuggestionType } from "../../../server/catalog/search-types.ts";
import { MAX_QUERY_LENGTH } from "../../lib/search-limits.ts";
import { SearchIcon } from "../ui/icons.tsx";
import { Highlight } from "./Highlight.tsx";

/** Wait after the last keystroke before asking for suggestions (the issue allows up to 150 ms). */
const SUGGEST_DEBOUNCE_MS = 120;
const MIN_CHARS = 2;

const GROUPS: { type: SuggestionType; label: string }[] = [
  { type: "product", label: "Products" },
  { type: "category", label: "Categories" },
  { type: "brand", label: "Brands" },
];

/**
 * The header's product search: a GET form to /shop (works without JavaScript) whose input is a
 * WAI-ARIA combobox. Typing asks /search/suggest for products, categories and brands; the arrow
 * keys move through them, Enter opens the active one (or searches when none is active), Escape
 * closes the list, and a second Escape clears the field.
 */
export function SearchCombobox({
  id,
  defaultValue = "",
  className = "",
}: {
  id: string;
  defaultValue?: string;
  className?: string;
}) {
  const navigate = useNavigate();
  const [value, setValue] = useState(defaultValue);
  const [typed, setTyped] = useState(false);
  const [options, setOptions] = useState<SuggestionOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);
  const focusedRef = useRef(false);
  const listboxId = `${id}-listbox`;
  const optionId = (option: SuggestionOption) => `${id}-${option.id}`;

  useEffect(() => {
    if (!typed) return;
    const text = value.trim();
    if (text.length < MIN_CHARS) {
      // The typed text is the outside system here: too short a text empties the list it fed.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setOptions([]);
      setOpen(false);
      setActive(-1);
      return;
    }
    const controller = new AbortController();
    const suggest = async () => {
      try {
        const response = await fetch(`/search/suggest?q=${encodeURIComponent(text)}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) return;
        const data = (await response.json()) as Suggestions;
        setOptions(data.options);
        setActive(-1);
        setOpen(focusedRef.current && data.options.length > 0);
      } catch {
        // Aborted by a newer keystroke, or offline: the form still searches on Enter.
      }
    };
    const timer = setTimeout(() => void suggest(), SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, typed]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const go = (option: SuggestionOption) => {
    close();
    setTyped(false);
    if (option.type !== "product") setValue("");
    void navigate(option.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
        if (options.length === 0) return;
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(0);
        } else setActive((i) => (i + 1) % options.length);
        break;
      case "ArrowUp":
        if (options.length === 0) return;
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(options.length - 1);
        } else setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
        break;
      case "Enter":
        if (open && active >= 0 && options[active]) {
          event.preventDefault();
          go(options[active]);
        } else close();
        break;
      case "Escape":
        if (open) {
          event.preventDefault();
          close();
        } else if (value) {
          event.preventDefault();
          setValue("");
          setOptions([]);
        }
        break;
      case "Tab":
        close();
        break;
      default:
        break;
    }
  };

  const expanded = open && focused && options.length > 0;
  const activeOption = expanded && active >= 0 ? options[active] : undefined;

  return (
    <Form
      method="get"
      action="/shop"
      role="search"
      aria-label="Product search"
      className={`relative flex items-center ${className}`}
      onSubmit={() => {
        close();
        setTyped(false);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        id={id}
        type="search"
        name="q"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeOption ? optionId(activeOption) : undefined}
        value={value}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setTyped(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          focusedRef.current = true;
          setFocused(true);
          if (options.length && typed) setOpen(true);
        }}
        onBlur={() => {
          focusedRef.current = false;
          setFocused(false);
          close();
        }}
        maxLength={MAX_QUERY_LENGTH}
        placeholder="Search for tools…"
        autoComplete="off"
        spellCheck={false}
        className="field pr-10 [&::-webkit-search-cancel-button]:hidden"
      />
      <button
        type="submit"
        className="absolute right-1 rounded p-1.5 text-slate-700 hover:text-ink"
        aria-label="Search"
      >
        <SearchIcon width={18} height={18} />
      </button>
      {/* The combobox pattern: focus stays in the input, which points at the active option with
          aria-activedescendant, so neither the listbox nor its options take focus or keys. */}
      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
      <div
        role="listbox"
        id={listboxId}
        aria-label="Search suggestions"
        hidden={!expanded}
        className="absolute top-full right-0 z-50 mt-1 max-h-[70vh] w-[min(28rem,calc(100vw-2rem))] overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
        // Keep focus in the input while the mouse picks an option.
        onMouseDown={(e) => e.preventDefault()}
      >
        {GROUPS.map(({ type, label }) => {
          const group = options.filter((o) => o.type === type);
          if (group.length === 0) return null;
          const labelId = `${id}-group-${type}`;
          return (
            <div key={type} role="group" aria-labelledby={labelId}>
              <div
                id={labelId}
                role="presentation"
                className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase"
              >
                {label}
              </div>
              {group.map((option) => {
                const isActive = activeOption === option;
                return (
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus -- the input handles the keys (combobox pattern)
                  <div
                    key={option.id}
                    id={optionId(option)}
                    role="option"
                    aria-selected={isActive}
                    className={`flex cursor-pointer items-center gap-3 px-3 py-2 ${isActive ? "bg-brand-100 text-ink" : "text-slate-800 hover:bg-slate-100"}`}
                    onMouseEnter={() => setActive(options.indexOf(option))}
                    onClick={() => go(option)}
                  >
                    {option.imageUrl ? (
                      <img
                        src={option.imageUrl}
                        alt=""
                        width={32}
                        height={32}
                        loading="lazy"
                        className="h-8 w-8 shrink-0 object-contain"
                      />
                    ) : null}
                    <span className="line-clamp-2 min-w-0 flex-1">
                      <Highlight segments={option.segments} />
                    </span>
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
      <div role="status" aria-live="polite" className="sr-only">
        {expanded
          ? `${options.length} suggestion${options.length === 1 ? "" : "s"} available. Use the up and down arrows to choose one.`
          : ""}
      </div>
    </Form>
  );
}
