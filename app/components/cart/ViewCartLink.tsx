import { Link } from "react-router";

/** " View your cart", after a message that something went into the cart. */
export function ViewCartLink() {
  return (
    <>
      {" "}
      <Link to="/cart" className="font-semibold underline">
        View your cart
      </Link>
    </>
  );
}
