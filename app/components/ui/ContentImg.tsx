import type { ImgHTMLAttributes } from "react";
import type { ContentImage } from "../../content/types.ts";

/** An image from the fixed copy at its own size; lazy unless `loading` says otherwise. */
export function ContentImg({ image, ...img }: { image: ContentImage } & ImgHTMLAttributes<HTMLImageElement>) {
  return <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading="lazy" {...img} />;
}
