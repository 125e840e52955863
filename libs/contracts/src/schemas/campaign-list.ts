import Joi from 'joi';
import { CAMPAIGN_STATUSES, type CampaignDto, type CampaignStatus } from './campaigns';
import { paginationQuerySchema, ulidSchema, type Pagination } from './common';

export interface ListCampaignsQuery {
  page: number;
  per_page: number;
  status?: CampaignStatus;
  /** The parts of one split campaign, in part order. */
  campaign_group_id?: string;
}

/** GET /api/v1/campaigns query: newest first, or one split group's parts in order. */
export const listCampaignsQuerySchema = Joi.object<ListCampaignsQuery>({
  ...paginationQuerySchema,
  status: Joi.string().valid(...CAMPAIGN_STATUSES),
  campaign_group_id: ulidSchema.description('Only the parts of this split campaign, in part order'),
});

export interface CampaignListDto {
  campaigns: CampaignDto[];
  pagination: Pagination;
}
