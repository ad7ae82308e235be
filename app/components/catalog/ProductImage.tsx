import type { ImgHTMLAttributes } from "react";

/** A product's square picture, named by its title, drawn at `size` pixels. */
export function ProductImage({
  product,
  size,
  ...img
}: { product: { imageUrl: string; title: string }; size: number } & ImgHTMLAttributes<HTMLImageElement>) {
  return <img src={product.imageUrl} alt={product.title} width={size} height={size} {...img} />;
}
