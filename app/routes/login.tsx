import type { Route } from "./+types/login";
import { AuthCard } from "../components/account/AuthCard.tsx";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { seo } from "../lib/seo.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Login", description: "Sign in to your ToolHub Wholesale account.", path: "/login", matches, noindex: true });
}

export default function Login() {
  return (
    <AuthCard title="Login" footer={{ text: "New here?", linkText: "Create an account", to: "/register" }}>
      <form method="post" className="space-y-4" noValidate>
        <div>
          <label htmlFor="login-email" className="block text-sm font-semibold text-ink">
            Email
          </label>
          <input id="login-email" name="email" type="email" autoComplete="email" className="field mt-1" />
        </div>
        <PasswordField id="login-password" autoComplete="current-password" />
        <button type="submit" className="btn-primary w-full">
          Login
        </button>
      </form>
    </AuthCard>
  );
}
