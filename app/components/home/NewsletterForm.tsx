export function NewsletterForm() {
  return (
    <section aria-labelledby="newsletter-heading" className="bg-brand-500">
      <div className="mx-auto flex max-w-7xl flex-col items-center gap-4 px-4 py-12 text-center">
        <h2 id="newsletter-heading" className="text-2xl font-bold text-ink">
          Subscribe to our newsletter
        </h2>
        <p className="text-ink">Trade deals, new arrivals and member offers — straight to your inbox.</p>
        <form method="post" action="/newsletter" className="flex w-full max-w-md flex-col gap-2 sm:flex-row">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <input id="newsletter-email" type="email" name="userEmail" autoComplete="email" placeholder="Enter your email" className="field flex-1" maxLength={254} />
          <button type="submit" className="btn-primary">
            Subscribe
          </button>
        </form>
      </div>
    </section>
  );
}
